// Chromium computes `element.labels` by scanning the whole tree scope for <label>s on first
// access, so reading it for every form control is quadratic (1.5 s for 1,000 inputs). The
// accessible-name library reads it for every labelable element. During one synchronous
// collect() the getter is replaced by a lookup in a map built once per tree scope, then restored
// (page scripts cannot run in between, and no DOM node is touched).

const LABELABLE = ["HTMLInputElement", "HTMLButtonElement", "HTMLSelectElement", "HTMLTextAreaElement", "HTMLMeterElement", "HTMLOutputElement", "HTMLProgressElement"];

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
  /** Patch a frame's window too (same-origin frames have their own prototypes). */
  add(win: Window): void;
  restore(): void;
}

export function patchLabels(win: Window): LabelPatch {
  const maps: Maps = new Map();
  const restores: Array<() => void> = [];
  const patched = new Set<Window>();
  const add = (w: Window): void => {
    if (patched.has(w)) return;
    patched.add(w);
    for (const name of LABELABLE) {
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
  add(win);
  return {
    add,
    restore() {
      for (const r of restores.splice(0).reverse()) {
        try {
          r();
        } catch {
          // nothing to restore to
        }
      }
    },
  };
}
