// Counting what an action did to the document: mutations plus input/change events (typing and
// ticking change properties, not attributes). A token tells whether the document is still the
// one the watch started in.
interface Watch {
  token: string;
  count: number;
  /** DOM mutations among `count` (the rest are input/change events). */
  mutations: number;
  /** A settle with `keep` answered: the next one counts its quiet from its own start. */
  settled: boolean;
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
  const w: Watch = { token: Math.random().toString(36).slice(2), count: 0, mutations: 0, settled: false, last: performance.now(), stop: () => undefined };
  const bump = () => {
    w.count++;
    w.last = performance.now();
  };
  const mo = new MutationObserver((records) => {
    w.count += records.length;
    w.mutations += records.length;
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

/**
 * Waits until nothing changed for `quietMs` after the last change (a settle after one with `keep`:
 * after its own start too), or `maxMs` when nothing changed at all. `inputQuietMs`: when
 * the only changes are the action's own input/change events (the page mutated nothing), a
 * shorter quiet is enough; the caller knows no network request is pending (perform.ts). `keep`:
 * the watch goes on after this call (a second settle follows), stopped after `maxMs` at most.
 */
export function watchSettle(args: { token: string; quietMs: number; maxMs: number; inputQuietMs?: number; keep?: boolean }): Promise<number> {
  const w = current;
  if (!w || w.token !== args.token) return Promise.resolve(-1);
  const start = performance.now();
  return new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      const quiet = w.mutations === 0 && args.inputQuietMs !== undefined ? args.inputQuietMs : args.quietMs;
      const since = w.settled ? Math.max(w.last, start) : w.last;
      if ((w.count > 0 && now - since >= quiet) || now - start >= args.maxMs) {
        if (args.keep) {
          w.settled = true;
          setTimeout(() => current === w && w.stop(), args.maxMs);
        } else w.stop();
        resolve(w.count);
        // Wake when the quiet could be over (a change moves that on) or at the cap; 25 ms apart at most.
      } else setTimeout(tick, Math.max(1, Math.min(w.count > 0 ? since + quiet - now : Infinity, start + args.maxMs - now, 25)));
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
