// The HTTP floor for bench/snapshot: a bare node:http server that reads a JSON body, parses it,
// stringifies it again (the in-process JSON floor's work) and answers with its length only (a
// snapshot's answer is small; echoing a 10,000-element payload back would time the echo).
// What any Node JSON-over-HTTP service pays before doing any work of its own.
import { createServer } from "node:http";

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const out = JSON.stringify({ bytes: JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8"))).length });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
    res.end(out);
  });
});
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
