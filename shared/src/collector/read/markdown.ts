// HTML → GitHub-flavoured Markdown with turndown and the GFM plugin (tables, strikethrough,
// task lists), tuned for a language model reading it: code blocks verbatim in fences with their
// language, images as their alt text (no alt: nothing; inline data URIs: the alt text alone),
// links kept (or, with `links: false`, their text only), and no empty artefacts (links without
// text, empty headings or list items, runs of blank lines).
import TurndownService from "turndown";
import { gfm } from "@joplin/turndown-plugin-gfm";

const services = new Map<boolean, TurndownService>();

const LANG = /(?:^|\s)(?:language|lang|highlight(?:-source)?|brush:?)-?([a-z0-9+#_-]+)/i;

/** The code block's language from its class (`language-js`, `lang-py`, `highlight-source-go`). */
export function languageOf(pre: Element): string {
  const code = pre.querySelector("code");
  for (const el of [pre, code, pre.parentElement]) {
    const m = el && typeof el.className === "string" ? LANG.exec(el.className) : null;
    if (m && m[1] && !/^(?:none|text|plain|plaintext)$/i.test(m[1])) return m[1].toLowerCase();
  }
  return pre.getAttribute("data-lang") ?? code?.getAttribute("data-lang") ?? "";
}

function turndown(links: boolean): TurndownService {
  const cached = services.get(links);
  if (cached) return cached;
  const s = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
    hr: "---",
  });
  s.use(gfm);
  s.remove(["script", "style", "noscript", "template", "iframe", "button", "select", "input", "textarea"]);
  // Every <pre> is code, kept verbatim (turndown only fences <pre><code>, and escapes Markdown
  // characters in a bare <pre>); the fence is longer than any run of backticks inside.
  s.addRule("verbatimPre", {
    filter: "pre",
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const code = (el.textContent ?? "").replace(/^\n+|\s+$/g, "");
      if (!code) return "";
      const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((m) => m.length));
      const fence = "`".repeat(Math.max(3, longest + 1));
      return `\n\n${fence}${languageOf(el)}\n${code}\n${fence}\n\n`;
    },
  });
  s.addRule("altImages", {
    filter: "img",
    replacement: (_content, node) => {
      const el = node as HTMLImageElement;
      const alt = (el.getAttribute("alt") ?? "").replace(/\s+/g, " ").trim().replace(/[[\]]/g, "");
      if (!alt) return "";
      const src = el.getAttribute("src") ?? "";
      return !links || !src || src.startsWith("data:") ? alt : `![${alt}](${src})`;
    },
  });
  s.addRule("textLinks", {
    filter: "a",
    replacement: (content, node) => {
      const text = content.trim();
      if (!text) return "";
      const href = (node as HTMLElement).getAttribute("href") ?? "";
      if (!links || !href || href.startsWith("#") || /^javascript:/i.test(href)) return content;
      const title = (node as HTMLElement).getAttribute("title");
      return `[${text}](${href.replace(/([()])/g, "\\$1")}${title ? ` "${title.replace(/"/g, '\\"')}"` : ""})`;
    },
  });
  s.addRule("nonEmptyHeadings", {
    filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
    replacement: (content, node) => {
      const text = content.replace(/\s+/g, " ").trim();
      if (!text) return "";
      return `\n\n${"#".repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });
  services.set(links, s);
  return s;
}

/** Removes empty list items and trailing blanks outside code fences, and runs of blank lines. */
function tidy(md: string): string {
  const out: string[] = [];
  let fence = "";
  for (const line of md.split("\n")) {
    const m = /^(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1].startsWith(fence)) fence = "";
      out.push(line);
      continue;
    }
    if (m) fence = m[1];
    if (/^[ \t]*(?:[-*+]|\d+\.)[ \t]*$/.test(line)) continue; // a list item left empty
    out.push(line.replace(/[ \t]+$/, ""));
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

export function toMarkdown(node: Node, links = true): string {
  return tidy(turndown(links).turndown(node as HTMLElement));
}
