// The read corpora beside the repository (../shared/corpora/read: AEB, wcxb-dev, the
// Readability test pages) as one list of pages, each with its ground truth, its site and its
// part (split.mjs). Nothing of the corpora is copied into the project.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { partOf, siteOf } from "./split.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** Beside the repository (../shared/corpora/read), or SIGHTLINE_READ_CORPORA. */
export const CORPORA_DIR = resolve(process.env.SIGHTLINE_READ_CORPORA ?? [join(root, "../shared/corpora/read"), "/work/shared/corpora/read"].find((d) => existsSync(d)) ?? join(root, "../shared/corpora/read"));

const firstFile = (...ps) => ps.find((p) => existsSync(p) && statSync(p).isFile()) ?? null;
export const html = (p) => (p.endsWith(".gz") ? gunzipSync(readFileSync(p)) : readFileSync(p));

function withSite(page, host) {
  const site = siteOf(host) || `${page.corpus}-${page.id}`;
  return { ...page, host, site, part: partOf(site) };
}

/** Every page of the named corpora (aeb, wcxb-dev, readability). */
export function loadPages(names = ["aeb", "wcxb-dev", "readability"], dir = CORPORA_DIR) {
  const out = [];
  for (const name of names) {
    const d = join(dir, name);
    if (name === "aeb") {
      const gt = JSON.parse(readFileSync(join(d, "ground-truth.json"), "utf8"));
      for (const id of Object.keys(gt).sort()) {
        let host = "";
        try { host = new URL(gt[id].url).hostname; } catch { /* none */ }
        out.push(withSite({ corpus: "aeb", id, file: firstFile(join(d, "html", `${id}.html.gz`), join(d, "html", `${id}.html`)), truth: gt[id].articleBody ?? "", type: "article" }, host));
      }
    } else if (name === "wcxb-dev") {
      const meta = JSON.parse(readFileSync(join(d, "metadata-dev.json"), "utf8")).files ?? {};
      for (const f of readdirSync(join(d, "ground-truth")).filter((f) => f.endsWith(".json")).sort()) {
        const id = f.slice(0, -5);
        const data = JSON.parse(readFileSync(join(d, "ground-truth", f), "utf8"));
        const g = data.ground_truth;
        if (!g || typeof g !== "object" || Array.isArray(g)) continue;
        const pt = data._internal?.page_type;
        let type = pt == null ? "article" : typeof pt === "object" ? (pt.primary ?? "article") : String(pt);
        if (type === "category") type = "collection";
        out.push(withSite({
          corpus: "wcxb-dev", id, file: firstFile(join(d, "html", `${id}.html.gz`), join(d, "html", `${id}.html`)),
          truth: g.main_content ?? "", title: g.title ?? null, type,
        }, meta[id]?.domain ?? ""));
      }
    } else if (name === "readability") {
      for (const t of readdirSync(d).sort()) {
        const mp = join(d, t, "expected-metadata.json");
        if (!existsSync(mp)) continue;
        const m = JSON.parse(readFileSync(mp, "utf8"));
        // The test page's folder names its site ("nytimes-2"); the corpus has no content truth.
        out.push(withSite({ corpus: "readability", id: t, file: firstFile(join(d, t, "source.html"), join(d, t, "source.html.gz")), title: m.title ?? null, excerpt: m.excerpt ?? null, truth: null }, t.replace(/-\d+$/, "")));
      }
    }
  }
  return out;
}
