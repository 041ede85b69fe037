// Renders corpus pages in Chromium for the training scripts (collect.mjs, titles.mjs): each
// page served from loopback, with only its own origin's requests let through (no images,
// media or fonts), scripts on or off, the collector bundle evaluated, then `inPage` run there.
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { html } from "./corpus.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The scripts' `--name value` options (a bare `--name` is "true"). */
export function options(args = process.argv.slice(2)) {
  return (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] && !args[i + 1].startsWith("--") ? args[i + 1] : i >= 0 ? "true" : dflt;
  };
}

/** A renderer for `pages` (page i at /p/i.html): render(i, js, inPage) → what inPage answered. */
export async function pageRenderer(pages, bundle) {
  const byPath = new Map(pages.map((p, i) => [`/p/${i}.html`, p]));
  const server = createServer((req, res) => {
    const p = byPath.get(new URL(req.url ?? "/", "http://x").pathname);
    if (!p) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(html(p.file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  const { ENGINES, waitForDomQuiet } = await import(join(root, "server/dist/browser/engines.js"));
  const QUIET = ENGINES.performance;
  return {
    async render(i, js, inPage) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: js });
      await context.route("**/*", (route) => {
        const req = route.request();
        if (!req.url().startsWith(origin) || ["image", "media", "font"].includes(req.resourceType())) return route.abort();
        return route.continue();
      });
      const page = await context.newPage();
      try {
        await page.goto(`${origin}/p/${i}.html`, { waitUntil: "domcontentloaded", timeout: 30000 });
        if (js) await waitForDomQuiet(page, QUIET.quietMs, QUIET.quietBudgetMs);
        await page.evaluate(bundle);
        return await page.evaluate(inPage);
      } finally {
        await context.close().catch(() => {});
      }
    },
    async close() {
      await browser.close();
      server.close();
    },
  };
}
