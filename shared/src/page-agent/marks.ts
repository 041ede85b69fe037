// Set-of-mark boxes for screenshots: a numbered outline per element, drawn in a closed shadow
// root so page styles cannot touch it. Every secret field (the one rule of
// shared/src/agent/secrets.ts) that holds a value is covered with an opaque box, and so is
// every place the page shows such a value again (a text, another field), so secret values
// never reach a screenshot.
import { SecretValues } from "../agent/secrets.js";
import { isSecretElement } from "../collector/privacy.js";

const HOST = "sightline-marks";
/** The mask's colour (tests look for it). */
export const MASK_COLOUR = "#555";

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

type Field = HTMLInputElement | HTMLTextAreaElement;

/** Documents and open shadow roots to look in: this document, its same-origin frames, their shadow roots. */
function roots(doc: Document, offX: number, offY: number, out: { root: Document | ShadowRoot; offX: number; offY: number }[] = []) {
  const add = (root: Document | ShadowRoot) => {
    out.push({ root, offX, offY });
    for (const el of Array.from(root.querySelectorAll("*"))) {
      if (el.shadowRoot) add(el.shadowRoot);
      if (el.localName === "iframe" || el.localName === "frame") {
        let inner: Document | null = null;
        try {
          inner = (el as HTMLIFrameElement).contentDocument;
        } catch {
          inner = null; // another origin: not reachable from here
        }
        if (inner) {
          const r = el.getBoundingClientRect();
          roots(inner, offX + r.left + (el as HTMLElement).clientLeft, offY + r.top + (el as HTMLElement).clientTop, out);
        }
      }
    }
  };
  add(doc);
  return out;
}

/** Boxes (viewport px) over secret fields with a value, and over every other place one of their values shows. */
function secretBoxes(): Box[] {
  const boxes: Box[] = [];
  const place = (r: DOMRect, offX: number, offY: number, pad = 0) => {
    if (r.width > 0 && r.height > 0) boxes.push({ left: r.left + offX - pad, top: r.top + offY - pad, width: r.width + 2 * pad, height: r.height + 2 * pad });
  };
  const all = roots(document, 0, 0);
  const values = new SecretValues();
  const others: { el: Field; offX: number; offY: number }[] = [];
  for (const { root, offX, offY } of all) {
    for (const el of Array.from(root.querySelectorAll<Field>("input, textarea"))) {
      if (!el.value) continue;
      if (isSecretElement(el)) {
        values.add(el.value);
        place(el.getBoundingClientRect(), offX, offY);
      } else others.push({ el, offX, offY });
    }
  }
  const found = values.pattern();
  if (!found) return boxes;
  const re = new RegExp(found.source, "g");
  const has = (s: string) => {
    re.lastIndex = 0;
    return re.test(s);
  };
  for (const { el, offX, offY } of others) if (has(el.value)) place(el.getBoundingClientRect(), offX, offY);
  // Text that shows a secret value: a box over each occurrence (a little larger, for the glyphs' edges).
  for (const { root, offX, offY } of all) {
    // (A frame's document is of another realm: instanceof Document would say no.)
    const doc = root.nodeType === Node.DOCUMENT_NODE ? (root as Document) : (root as ShadowRoot).ownerDocument;
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const range = doc.createRange();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.nodeValue ?? "";
      if (!has(text)) continue;
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        for (const r of Array.from(range.getClientRects())) place(r, offX, offY, 2);
        if (m[0].length === 0) re.lastIndex++;
      }
    }
  }
  return boxes;
}

export function clearMarks(): void {
  document.querySelectorAll(HOST).forEach((n) => n.remove());
}

export function showMarks(args: { marks: { id: number; x: number; y: number; width: number; height: number }[] }): number {
  clearMarks();
  const host = document.createElement(HOST);
  host.style.cssText = "position:fixed;inset:0;z-index:2147483647;pointer-events:none;display:block";
  const root = host.attachShadow({ mode: "closed" });
  const add = (css: string, text = "") => {
    const d = document.createElement("div");
    d.style.cssText = css;
    d.textContent = text;
    root.appendChild(d);
  };
  for (const b of secretBoxes()) add(`position:fixed;left:${b.left}px;top:${b.top}px;width:${b.width}px;height:${b.height}px;background:${MASK_COLOUR}`);
  const colours = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080"];
  for (const m of args.marks) {
    const c = colours[m.id % colours.length];
    add(`position:fixed;left:${m.x}px;top:${m.y}px;width:${m.width}px;height:${m.height}px;outline:2px solid ${c};box-sizing:border-box`);
    add(`position:fixed;left:${m.x}px;top:${Math.max(0, m.y - 14)}px;background:${c};color:#fff;font:bold 11px/14px sans-serif;padding:0 3px`, String(m.id));
  }
  document.documentElement.appendChild(host);
  return args.marks.length;
}
