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
  mo.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  document.addEventListener("input", bump, true);
  document.addEventListener("change", bump, true);
  w.stop = () => {
    mo.disconnect();
    document.removeEventListener("input", bump, true);
    document.removeEventListener("change", bump, true);
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
