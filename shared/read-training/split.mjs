// Which part of the read corpora a page belongs to, by its site (never by page: pages of one
// site share templates, and a model that saw one would be measured on its twin). Fixed by a hash
// of the site's name, drawn once before any result was looked at:
//   report (~30%): never looked at page by page; the figures in docs/quality.md
//   choose (~15%): settings (trees, depth, threshold) and which rules stay are chosen here
//   train  (~55%): the model is fitted here (the shipped model on train + choose)
import { createHash } from "node:crypto";

/** Second-level labels under a country's domain ("co.uk", "com.au"): the site's name is the label before. */
const SECOND_LEVEL = new Set(["co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go", "gob", "nic"]);

/** The site's name: the registrable domain's own label ("forum.cookshack.com" → "cookshack"). */
export function siteOf(host) {
  const labels = String(host).toLowerCase().replace(/^www\d*\./, "").split(".").filter(Boolean);
  if (labels.length <= 1) return labels[0] ?? "";
  let i = labels.length - 2;
  if (i > 0 && SECOND_LEVEL.has(labels[i]) && labels[labels.length - 1].length === 2) i--;
  return labels[i];
}

/** "train", "choose" or "report" for a site. */
export function partOf(site) {
  const h = createHash("sha256").update(`sightline-read-site/${site}`).digest("hex");
  const v = parseInt(h.slice(0, 8), 16) % 100;
  return v < 30 ? "report" : v < 45 ? "choose" : "train";
}
