// The bench's own pages, served on 127.0.0.1: a 5,000-element page, a media-heavy page (slow
// images and a web font), a page that fills in after load, and an article.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082",
  "hex",
);

function big(n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 5;
    if (k === 0) rows.push(`<li><a href="/item/${i}">Item ${i}</a></li>`);
    else if (k === 1) rows.push(`<li><button type="button">Add ${i}</button></li>`);
    else if (k === 2) rows.push(`<li><label>Qty ${i} <input type="number" value="1"></label></li>`);
    else if (k === 3) rows.push(`<li><input type="checkbox" aria-label="Pick ${i}"></li>`);
    else rows.push(`<li><span role="button" tabindex="0">Menu ${i}</span></li>`);
  }
  return `<!doctype html><title>Big</title><h1>Catalogue</h1><ul>${rows.join("")}</ul>`;
}

const media = (slowMs: number) => `<!doctype html><html><head><title>Media</title>
<style>@font-face { font-family: Bench; src: url(/font.woff2?d=${slowMs}); } body { font-family: Bench, sans-serif; }</style></head>
<body><h1>Gallery</h1>
${Array.from({ length: 8 }, (_, i) => `<figure><img src="/img/${i}.png?d=${slowMs}" width="120" height="80" alt="Photo ${i}"><figcaption><a href="/p/${i}">Photo ${i}</a></figcaption></figure>`).join("")}
<form><input type="search" placeholder="Search photos"><button>Search</button></form></body></html>`;

const late = `<!doctype html><title>Late</title><h1>Results</h1><div id="list"><button>Filter</button></div>
<script>
  // Results arrive from an API after load, as on most single-page apps.
  fetch("/api/results?d=400").then((r) => r.json()).then((rows) => {
    const list = document.getElementById("list");
    for (const t of rows) { const b = document.createElement("button"); b.textContent = t; list.appendChild(b); }
  });
</script>`;

const article = `<!doctype html><html lang="en"><head><title>How lighthouses work</title>
<meta name="description" content="A short history of lighthouse optics."></head><body>
<nav><a href="/">Home</a> | <a href="/topics">Topics</a></nav><article><h1>How lighthouses work</h1>
${Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i}: lighthouses have guided ships along dangerous coasts for centuries, and the Fresnel lens bent nearly all of the light into a narrow beam that could be seen far out at sea.</p>`).join("")}
</article><footer>Copyright</footer></body></html>`;

export interface BenchSite {
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

export async function serveBenchPages(): Promise<BenchSite> {
  const bigHtml = big(5000);
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const delay = Number(u.searchParams.get("d") ?? 0);
    const send = (type: string, body: string | Buffer) => setTimeout(() => res.writeHead(200, { "content-type": type }).end(body), delay);
    if (u.pathname === "/big") return send("text/html", bigHtml);
    if (u.pathname === "/media") return send("text/html", media(150));
    if (u.pathname === "/late") return send("text/html", late);
    if (u.pathname === "/article") return send("text/html", article);
    if (u.pathname.startsWith("/img/")) return send("image/png", PNG);
    if (u.pathname === "/font.woff2") return send("font/woff2", Buffer.alloc(0));
    if (u.pathname === "/api/results") return send("application/json", JSON.stringify(Array.from({ length: 10 }, (_, i) => `Result ${i}`)));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (p) => `${origin}${p}`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
