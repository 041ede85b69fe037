// Counting what an action did to the document: mutations plus input/change events (typing and
// ticking change properties, not attributes). A token tells whether the document is still the
// one the watch started in.
interface Watch {
  token: string;
  count: number;
  last: number;
  stop: () => void;
}

let current: Watch | null = null;

/** The documents of same-origin frames, nested ones too (up to the collector's depth of 4). */
function frameDocuments(doc: Document, depth = 0): Document[] {
  if (depth >= 4) return [];
  const out: Document[] = [];
  for (const f of Array.from(doc.querySelectorAll("iframe, frame"))) {
    let d: Document | null = null;
    try {
      d = (f as HTMLIFrameElement).contentDocument;
    } catch {
      d = null; // another origin: its own world watches it (backends/headless/frames.ts)
    }
    if (d) out.push(d, ...frameDocuments(d, depth + 1));
  }
  return out;
}

export function watchStart(): string {
  current?.stop();
  const w: Watch = { token: Math.random().toString(36).slice(2), count: 0, last: performance.now(), stop: () => undefined };
  const bump = () => {
    w.count++;
    w.last = performance.now();
  };
  const mo = new MutationObserver((records) => {
    w.count += records.length;
    w.last = performance.now();
  });
  // The document and its same-origin frames' (an action on a frame's form changes the frame).
  const docs = [document, ...frameDocuments(document)];
  for (const doc of docs) {
    if (doc.documentElement) mo.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    doc.addEventListener("input", bump, true);
    doc.addEventListener("change", bump, true);
  }
  w.stop = () => {
    mo.disconnect();
    for (const doc of docs) {
      doc.removeEventListener("input", bump, true);
      doc.removeEventListener("change", bump, true);
    }
  };
  current = w;
  return w.token;
}

export function watchSettle(args: { token: string; quietMs: number; maxMs: number }): Promise<number> {
  const w = current;
  if (!w || w.token !== args.token) return Promise.resolve(-1);
  const start = performance.now();
  return new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      if ((w.count > 0 && now - w.last >= args.quietMs) || now - start >= args.maxMs) {
        w.stop();
        resolve(w.count);
      } else setTimeout(tick, 25);
    };
    tick();
  });
}

/** Visible text only: innerText skips hidden nodes. */
export function hasText(args: { text: string }): boolean {
  const want = args.text.replace(/\s+/g, " ").trim().toLowerCase();
  if (!want) return false;
  return (document.body?.innerText ?? "").replace(/\s+/g, " ").toLowerCase().includes(want);
}
