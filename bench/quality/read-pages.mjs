// The real saved pages of the read corpora beside the repository (../shared/corpora/read: AEB,
// wcxb-dev, the Readability test pages), for the benches that use them as real websites rather
// than as read-mode benchmarks (names-vs-chromium, real-goals, real-prompt): which pages there
// are, the site (host) each comes from, a loopback server that serves them, and a render with
// scripts off the way the service captures a static page (nothing off loopback, no images,
// media or fonts). Only ids, URLs and HTML are read; nothing of the corpora is copied.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** ../shared beside the repository, or SIGHTLINE_SHARED_DIR (a checkout elsewhere, e.g. a second worktree). */
export const SHARED_DIR = resolve(process.env.SIGHTLINE_SHARED_DIR ?? join(root, "../shared"));
export const READ_CORPORA = join(SHARED_DIR, "corpora/read");

const gz = (p) => (p.endsWith(".gz") ? gunzipSync(readFileSync(p)) : readFileSync(p));
const firstFile = (...ps) => ps.find((p) => existsSync(p) && statSync(p).isFile()) ?? null;

/** "www.example.co.uk" → "example.co.uk": a site, not a server name. */
export function siteOf(url) {
  let host;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  return host.replace(/^(www\d*|m|amp|mobile)\./, "");
}

/** A page's own URL when the corpus does not give one: its canonical link or og:url. */
function urlInHtml(html) {
  const head = html.slice(0, 200_000);
  const m =
    /<link[^>]+rel=["']?canonical["']?[^>]*href=["']([^"']+)["']/i.exec(head) ??
    /<link[^>]+href=["']([^"']+)["'][^>]*rel=["']?canonical/i.exec(head) ??
    /<meta[^>]+property=["']og:url["'][^>]*content=["']([^"']+)["']/i.exec(head) ??
    /<meta[^>]+content=["']([^"']+)["'][^>]*property=["']og:url["']/i.exec(head);
  return m && /^https?:\/\//i.test(m[1]) ? m[1] : null;
}

/**
 * Every page of the named corpora: { corpus, id, file, url, site }. `site` is the host the page
 * was saved from (AEB and wcxb-dev give the URL; a Readability test page's canonical link, else
 * its folder name without a trailing number: "nytimes-2" is the site "nytimes").
 */
export function loadReadPages(corpora = ["wcxb-dev", "aeb", "readability"], dir = READ_CORPORA) {
  const out = [];
  for (const name of corpora) {
    const d = join(dir, name);
    if (!existsSync(d)) continue;
    if (name === "aeb") {
      const gt = JSON.parse(readFileSync(join(d, "ground-truth.json"), "utf8"));
      for (const id of Object.keys(gt).sort()) {
        const file = firstFile(join(d, "html", `${id}.html.gz`), join(d, "html", `${id}.html`));
        if (file) out.push({ corpus: name, id, file, url: gt[id].url ?? null, site: siteOf(gt[id].url ?? "") });
      }
    } else if (name === "wcxb-dev") {
      for (const f of readdirSync(join(d, "ground-truth")).filter((f) => f.endsWith(".json")).sort()) {
        const id = f.slice(0, -5);
        const file = firstFile(join(d, "html", `${id}.html.gz`), join(d, "html", `${id}.html`));
        if (!file) continue;
        const url = JSON.parse(readFileSync(join(d, "ground-truth", f), "utf8")).url ?? null;
        out.push({ corpus: name, id, file, url, site: siteOf(url ?? "") });
      }
    } else if (name === "readability") {
      for (const id of readdirSync(d).sort()) {
        const file = firstFile(join(d, id, "source.html.gz"), join(d, id, "source.html"));
        if (!file) continue;
        const url = urlInHtml(gz(file).toString("utf8"));
        out.push({ corpus: name, id, file, url, site: (url && siteOf(url)) || `readability:${id.replace(/-\d+$/, "")}` });
      }
    }
  }
  for (const p of out) if (!p.site) p.site = `${p.corpus}:${p.id}`;
  return out;
}

/**
 * The tuning / held-out split of the real-page goal set, by site: the first 8 hex digits of
 * sha256("sightline-real-goals/" + site), mod 10 < 4 → held out (about 40% of the sites). Fixed
 * before any result was looked at; every page of a site falls on the same side.
 */
export function heldOutSite(site) {
  const h = createHash("sha256").update(`sightline-real-goals/${site}`).digest("hex");
  return parseInt(h.slice(0, 8), 16) % 10 < 4;
}

/** Deterministic sample of n items (Fisher-Yates with a seeded LCG). */
export function samplePages(list, n, seed = 1) {
  let s = seed >>> 0 || 1;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

/**
 * Serves the pages on 127.0.0.1 at /p/<index>.html as UTF-8 (every file of these corpora is
 * UTF-8; some carry a stale <meta charset>). Resolves to { origin, urlOf(i), close() }.
 */
export async function servePages(pages) {
  const server = createServer((req, res) => {
    const m = /^\/p\/(\d+)\.html$/.exec(new URL(req.url ?? "/", "http://x").pathname);
    const p = m ? pages[Number(m[1])] : null;
    if (!p) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(gz(p.file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, urlOf: (i) => `${origin}/p/${i}.html`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * A page of the corpus opened like the service's static capture: scripts off, 1280x900, nothing
 * fetched but the page itself. Resolves to { context, page }; the caller closes the context.
 */
export async function openStatic(browser, origin, url, { width = 1280, height = 900, waitUntil = "domcontentloaded" } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: false });
  await context.route("**/*", (route) => {
    const req = route.request();
    if (!req.url().startsWith(origin) || ["image", "media", "font"].includes(req.resourceType())) return route.abort();
    return route.continue();
  });
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil, timeout: 30000 });
  } catch (err) {
    await context.close().catch(() => {});
    throw err;
  }
  return { context, page };
}

/**
 * In the page: the element's path from the document, child element indices joined by "/", "s"
 * marking a step into a shadow root (the same key a CDP DOM.getDocument walk gives, so two loads
 * of a static page can be matched element by element).
 */
export const PATH_OF_SOURCE = `(el) => {
  const parts = [];
  for (let n = el; n; ) {
    const p = n.parentNode;
    if (!p) break;
    let i = 0;
    for (let c = p.firstElementChild; c && c !== n; c = c.nextElementSibling) i++;
    parts.push(i);
    if (p.nodeType === 11) { parts.push("s"); n = p.host; }
    else if (p.nodeType === 9) break;
    else n = p;
  }
  return parts.reverse().join("/");
}`;

/** The same paths from a CDP DOM.getDocument({ depth: -1, pierce: true }) root: backendNodeId → path. */
export function pathsFromCdpDocument(doc) {
  const out = new Map();
  const walk = (node, path) => {
    let i = 0;
    for (const c of node.children ?? []) {
      if (c.nodeType !== 1) continue;
      const p = path === null ? String(i) : `${path}/${i}`;
      out.set(c.backendNodeId, p);
      walk(c, p);
      for (const sr of c.shadowRoots ?? []) walk(sr, `${p}/s`);
      i++;
    }
  };
  walk(doc, null);
  return out;
}
