// The page's text runs as the person sees them, across the document, open shadow roots and
// same-origin frames (one judge per document; a frame the person cannot see hides all of its
// text): hidden passages (adjacent hidden runs merged) and the per-element verdict the agent's
// snapshot carries.
import { VisibilityJudge, type HiddenRanges } from "./judge.js";

/** What the person sees of an element's text: "all" of it hidden, a "part", or null (all seen). */
export type TextHidden = "all" | "part";

/** Characters of an element's text looked at: well beyond what the agent is shown of it (text ≤ 200, name ≤ 300). */
const ELEMENT_TEXT_CHARS = 2000;
const INLINE = /^inline|^contents$|^ruby/;

const nonSpace = (s: string) => s.replace(/\s+/g, "").length;

function frameElementOf(doc: Document): Element | null {
  try {
    return doc.defaultView?.frameElement ?? null;
  } catch {
    return null;
  }
}

/** Text nodes under `root` in tree order, open shadow roots first, same-origin frames in place. */
export function* textNodes(root: Node, frames = false): Generator<Text> {
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === 3) {
      yield n as Text;
      continue;
    }
    if (n.nodeType !== 1 && n.nodeType !== 9 && n.nodeType !== 11) continue;
    const kids: Node[] = [];
    const sr = (n as Element).shadowRoot;
    if (sr) kids.push(sr);
    for (let c = n.firstChild; c; c = c.nextSibling) kids.push(c);
    if (frames && n.nodeType === 1 && ((n as Element).localName === "iframe" || (n as Element).localName === "frame")) {
      try {
        const d = (n as HTMLIFrameElement).contentDocument;
        if (d?.body) kids.push(d.body);
      } catch {
        /* cross-origin: not ours to read */
      }
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

export class Sight {
  private readonly judges = new Map<Document, VisibilityJudge>();
  private readonly framesHidden = new Map<Document, boolean>();
  private readonly labels = new Map<Document, Map<Element, Element[]>>();

  judge(doc: Document): VisibilityJudge {
    let j = this.judges.get(doc);
    if (!j) this.judges.set(doc, (j = new VisibilityJudge(doc)));
    return j;
  }

  /** The frame showing `doc` (or one of its own frames, up to the top) cannot be seen. */
  private frameHidden(doc: Document): boolean {
    let v = this.framesHidden.get(doc);
    if (v === undefined) {
      const fe = frameElementOf(doc);
      v = fe ? this.frameHidden(fe.ownerDocument) || this.judge(fe.ownerDocument).boxHidden(fe) : false;
      this.framesHidden.set(doc, v);
    }
    return v;
  }

  /** Hidden character ranges of a run (null: not a run). */
  run(t: Text): HiddenRanges | null {
    const r = this.judge(t.ownerDocument).run(t);
    if (r && this.frameHidden(t.ownerDocument)) return [[0, (t.nodeValue ?? "").length]];
    return r;
  }

  /**
   * Whether the person can see an element's text: its own runs, or (with none) what names it
   * (aria-labelledby, its <label>s: "part" at most, the field itself being seen), or its box.
   */
  element(el: Element): TextHidden | null {
    const own = this.textOf([el]);
    if (own.hidden || own.shown) return own.hidden && !own.shown ? "all" : own.hidden ? "part" : null;
    if (this.frameHidden(el.ownerDocument) || this.judge(el.ownerDocument).boxHidden(el)) return "all";
    const names = this.textOf(this.nameSources(el));
    return names.hidden ? "part" : null;
  }

  private textOf(roots: Element[]): { shown: number; hidden: number } {
    let shown = 0;
    let hidden = 0;
    for (const root of roots) {
      for (const t of textNodes(root)) {
        if (shown + hidden >= ELEMENT_TEXT_CHARS) return { shown, hidden };
        const r = this.run(t);
        if (!r) continue;
        const v = t.nodeValue ?? "";
        const total = nonSpace(v);
        const h = r.reduce((n, [a, b]) => n + nonSpace(v.slice(a, b)), 0);
        hidden += h;
        shown += total - h;
      }
    }
    return { shown, hidden };
  }

  /** The elements whose text names `el`: aria-labelledby targets, its <label>s. */
  private nameSources(el: Element): Element[] {
    const out: Element[] = [];
    const ids = el.getAttribute("aria-labelledby");
    if (ids) {
      const root = el.getRootNode() as Document | ShadowRoot;
      for (const id of ids.split(/\s+/)) {
        const t = id && root.getElementById?.(id);
        if (t) out.push(t);
      }
    }
    // One pass over the document's labels (el.labels searches the whole tree on every call).
    let index = this.labels.get(el.ownerDocument);
    if (!index) {
      index = new Map();
      for (const l of Array.from(el.ownerDocument.getElementsByTagName("label"))) {
        const c = (l as HTMLLabelElement).control;
        if (!c) continue;
        const list = index.get(c);
        if (list) list.push(l);
        else index.set(c, [l]);
      }
      this.labels.set(el.ownerDocument, index);
    }
    out.push(...(index.get(el) ?? []));
    return out;
  }

  private blockOf(el: Element | null): Element | null {
    const j = el ? this.judge(el.ownerDocument) : null;
    for (let n = el; n && j; n = n.parentElement) {
      const d = j.displayOf(n);
      if (!INLINE.test(d)) return n;
    }
    return null;
  }

  /**
   * Every passage of the page the person cannot see: adjacent hidden runs (nothing visible in
   * between) joined into one, whitespace collapsed. No length or count limit.
   */
  passages(doc: Document = document): string[] {
    const out: string[] = [];
    let parts: string[] = [];
    let lastBlock: Element | null = null;
    const flush = () => {
      const p = parts.join("").replace(/\s+/g, " ").trim();
      if (p) out.push(p);
      parts = [];
      lastBlock = null;
    };
    const add = (s: string, t: Text) => {
      const block = this.blockOf(t.parentElement);
      if (parts.length && block !== lastBlock) parts.push(" ");
      parts.push(s);
      lastBlock = block;
    };
    for (const t of textNodes(doc.body ?? doc.documentElement, true)) {
      const r = this.run(t);
      if (!r) continue;
      const v = t.nodeValue ?? "";
      let at = 0;
      for (const [a, b] of r) {
        if (/\S/.test(v.slice(at, a))) flush();
        add(v.slice(a, b), t);
        at = b;
      }
      if (/\S/.test(v.slice(at))) flush();
    }
    flush();
    return [...new Set(out)];
  }
}
