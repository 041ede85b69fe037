// nearby_text: the label or the closest static text before (for checkboxes/radios: after)
// an element. Bounded: a few sibling steps on a few ancestor levels, never a sibling scan.
import { clip, shortText, squash } from "./text.js";

const MAX = 80;

function textOf(n: Node): string {
  if (n.nodeType === 3) return squash(n.nodeValue ?? "");
  if (n.nodeType !== 1) return "";
  const el = n as Element;
  const tag = el.localName;
  if (tag === "script" || tag === "style" || tag === "select" || tag === "option" || tag === "template") return "";
  return shortText(el, MAX * 2, 60);
}

function tail(s: string): string {
  return s.length <= MAX ? s : `…${s.slice(s.length - MAX + 1).trimStart()}`;
}

function scan(el: Element, forward: boolean): string {
  let node: Node | null = el;
  for (let level = 0; level < 3 && node; level++) {
    let sib: Node | null = forward ? node.nextSibling : node.previousSibling;
    for (let steps = 0; sib && steps < 4; steps++) {
      const t = textOf(sib);
      if (t) return forward ? clip(t, MAX) : tail(t);
      sib = forward ? sib.nextSibling : sib.previousSibling;
    }
    const parent: Node | null = node.parentNode;
    if (!parent || parent.nodeType !== 1) break;
    const ptag = (parent as Element).localName;
    if (ptag === "body" || ptag === "form" || ptag === "html") break;
    node = parent;
  }
  return "";
}

/** `labelsFor`: what `el.labels` gives, when the caller has a cheaper way to ask. */
export function nearbyText(el: Element, labelsFor?: (el: Element) => ArrayLike<HTMLLabelElement> | null): string | null {
  const labels = labelsFor ? labelsFor(el) : (el as HTMLInputElement).labels;
  if (labels && labels.length) {
    const t = shortText(labels[0], MAX, 60);
    if (t) return t;
  }
  const type = el.localName === "input" ? (el.getAttribute("type") ?? "").toLowerCase() : "";
  const forwardFirst = type === "checkbox" || type === "radio";
  const t = forwardFirst ? scan(el, true) || scan(el, false) : scan(el, false);
  return t || null;
}
