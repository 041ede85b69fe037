// Which <label>s each form control has (`element.labels`), answered fast during one collect().
//
// Chromium computes `element.labels` by scanning the whole tree scope for <label>s on first
// access, so reading it for every form control is quadratic (1.5 s for 1,000 inputs). During
// one synchronous collect() (page scripts cannot run in between, no DOM node is touched) the
// labels come from a map built once per tree scope:
//  - the collector's own code asks labelsFor();
//  - the accessible-name library reads the getter: the labelable elements a computation can
//    reach get their labels lent as own properties for that computation (lend()); only when
//    what it reaches is not known (slots, aria-owns, chains of aria-labelledby) is the getter
//    replaced on the prototypes (activate()), until restore() at the end of the collect().
// Redefining a property on HTMLInputElement.prototype & co. invalidates every piece of
// optimised code that read any property of such an element: patching on every collect() threw
// away the JIT's work each time (about a fifth of collect() on a big page).

import { HTML_NS } from "./namespaces.js";

/** The labelable elements (HTML): local name and interface. */
const LABELABLE: ReadonlyArray<readonly [string, string]> = [
  ["input", "HTMLInputElement"], ["button", "HTMLButtonElement"], ["select", "HTMLSelectElement"],
  ["textarea", "HTMLTextAreaElement"], ["meter", "HTMLMeterElement"], ["output", "HTMLOutputElement"],
  ["progress", "HTMLProgressElement"],
];
/** Local names of the labelable elements, HTML namespace only. */
export const LABELABLE_TAGS: ReadonlySet<string> = new Set(LABELABLE.map(([tag]) => tag));
/** A selector matching the labelable elements. */
export const LABELABLE_SELECTOR = LABELABLE.map(([tag]) => tag).join(", ");

type Maps = Map<Node, Map<Element, HTMLLabelElement[]>>;
const EMPTY: HTMLLabelElement[] = [];

function buildMap(root: Document | ShadowRoot): Map<Element, HTMLLabelElement[]> {
  const map = new Map<Element, HTMLLabelElement[]>();
  root.querySelectorAll("label").forEach((label) => {
    const control = (label as HTMLLabelElement).control;
    if (!control) return;
    const list = map.get(control);
    if (list) list.push(label as HTMLLabelElement);
    else map.set(control, [label as HTMLLabelElement]);
  });
  return map;
}

export function labelsOf(el: Element, maps: Maps): HTMLLabelElement[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  let m = maps.get(root);
  if (!m) {
    m = typeof (root as Document).querySelectorAll === "function" ? buildMap(root) : new Map();
    maps.set(root, m);
  }
  return m.get(el) ?? EMPTY;
}

export interface LabelPatch {
  /** Register a frame's window (same-origin frames have their own prototypes). */
  add(win: Window): void;
  /** Before the accessible-name library runs: patch every registered window (once). */
  activate(): void;
  /** activate() has run: the getter answers for every element (nothing to lend). */
  readonly active: boolean;
  /** What `el.labels` gives (null for elements without it), without calling the getter. */
  labelsFor(el: Element): ArrayLike<HTMLLabelElement> | null;
  /**
   * For one name computation that can reach only the labelable elements `els`: their labels as
   * own properties of the elements (no prototype changes, so no optimised code is thrown
   * away). Returns the function that removes them again, or null when nothing was done.
   */
  lend(els: Element[]): (() => void) | null;
  restore(): void;
}

export function patchLabels(win: Window): LabelPatch {
  const maps: Maps = new Map();
  const restores: Array<() => void> = [];
  const windows: Window[] = [];
  let active = false;
  // Called once per window while active: by activate() (once) and by add() for a new window.
  const patch = (w: Window): void => {
    for (const [, name] of LABELABLE) {
      const ctor = (w as unknown as Record<string, { prototype: object } | undefined>)[name];
      const proto = ctor?.prototype;
      if (!proto) continue;
      const desc = Object.getOwnPropertyDescriptor(proto, "labels");
      if (!desc || !desc.configurable) continue;
      try {
        Object.defineProperty(proto, "labels", {
          configurable: true,
          enumerable: desc.enumerable,
          get(this: Element) {
            return labelsOf(this, maps);
          },
        });
        restores.push(() => Object.defineProperty(proto, "labels", desc));
      } catch {
        // a frozen prototype: keep the native getter
      }
    }
  };
  windows.push(win);
  return {
    add(w) {
      if (windows.includes(w)) return;
      windows.push(w);
      if (active) patch(w);
    },
    activate() {
      if (active) return;
      active = true;
      for (const w of windows) patch(w);
    },
    labelsFor(el) {
      if (!LABELABLE_TAGS.has(el.localName) || el.namespaceURI !== HTML_NS) return null;
      return labelsOf(el, maps);
    },
    get active() {
      return active;
    },
    lend(els) {
      if (active) return null;
      const lent: Element[] = [];
      for (const el of els) {
        if (!LABELABLE_TAGS.has(el.localName) || el.namespaceURI !== HTML_NS) continue;
        // An own property the page set is what the getter would be shadowed by anyway.
        if (Object.prototype.hasOwnProperty.call(el, "labels")) continue;
        try {
          Object.defineProperty(el, "labels", { value: labelsOf(el, maps), configurable: true });
          lent.push(el);
        } catch {
          // a frozen element: the native getter answers (slowly, rightly)
        }
      }
      if (!lent.length) return null;
      return () => {
        // Last lent first: each delete removes the property added last (V8 then goes back to
        // the element's previous hidden class).
        for (let i = lent.length - 1; i >= 0; i--) delete (lent[i] as { labels?: unknown }).labels;
      };
    },
    restore() {
      for (const r of restores.splice(0).reverse()) {
        try {
          r();
        } catch {
          // nothing to restore to
        }
      }
      active = false;
    },
  };
}
