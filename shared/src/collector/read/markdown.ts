// HTML → GitHub-flavoured Markdown with turndown and the GFM plugin (tables, strikethrough,
// task lists). Images keep their alt text; links keep their URL.
import TurndownService from "turndown";
import { gfm } from "@joplin/turndown-plugin-gfm";

let service: TurndownService | null = null;

function turndown(): TurndownService {
  if (service) return service;
  const s = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
    hr: "---",
  });
  s.use(gfm);
  s.remove(["script", "style", "noscript", "template", "iframe", "button", "select", "input", "textarea"]);
  service = s;
  return s;
}

export function toMarkdown(node: Node): string {
  const md = turndown().turndown(node as HTMLElement);
  return md.replace(/\n{3,}/g, "\n\n").trim();
}
