// The HTTP floors for bench/snapshot: a bare node:http server that does a JSON service's
// unavoidable work and nothing else. What any Node JSON-over-HTTP service pays before doing
// any work of its own.
//   POST /        parse the body, stringify it again (the in-process JSON floor's work) and
//                 answer with its length only (echoing a 10,000-element payload back would
//                 time the echo): the HTTP floor.
//   PUT /reply    store a JSON body (a real /v1/snapshot answer to the payload about to be posted)
//   POST /reply   parse the body, answer with the stored reply stringified again: the contract
//                 floor, i.e. the HTTP floor plus the answer the contract requires (all fields
//                 of every returned element), which the client must parse too.
import { createServer } from "node:http";

let reply = null;
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    let out;
    if (req.url === "/reply" && req.method === "PUT") {
      reply = body;
      out = "{}";
    } else if (req.url === "/reply") out = JSON.stringify(reply);
    else out = JSON.stringify({ bytes: JSON.stringify(body).length });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
    res.end(out);
  });
});
// Idle keep-alive sockets must outlive the bench's pauses (in-process floors between series):
// a socket the server closes as the client reuses it fails that request with ECONNRESET.
server.keepAliveTimeout = 120_000;
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
