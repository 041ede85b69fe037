// Cross-origin frames on a headless tab (issue 33). The collector walks the top document and its
// same-origin frames; a frame of another origin (a payment form, an embedded widget) cannot be
// reached from there, so its elements had no ids and no tool could act on them. Here each such
// frame gets Sightline's isolated world of its own (SightlineWorld.ofFrame: its own CDP session
// when it is out of process), is collected there, and its elements join the capture under the
// iframe element (iframe_content), as a same-origin frame's do:
// - ids: frame k's element n is k * FRAME_ID_BASE + n, so every id the agent holds names one
//   element and one frame, and stays stable while the frame's document does;
// - boxes: moved by the iframe's content box into top-viewport coordinates;
// - acting: locate/describe of a frame id go to that frame's world (the element scrolled into
//   view in the frame, the iframe in the top page), the point comes back in top-viewport
//   coordinates, so the trusted mouse and keys reach it like any other; the calls that act on the
//   located element then go to the same world; a change watch covers the top page and the frames.
import type { Frame, Page } from "playwright-core";
import type { RawElement, SnapshotRequest } from "../../../contract/index.js";
import { originOf } from "../../core/actions.js";
import type { PageCallArgs, PageCallName, PageCallResult } from "../../perform/page-calls.js";
import { collectorScript } from "../../../playwright/bundle.js";
import { COLLECT } from "../../../playwright/snapshot.js";
import { SightlineWorld } from "../../../playwright/world.js";
import type { CallRouter } from "./driver.js";

/** Frame k's element n has id k * FRAME_ID_BASE + n (the collector numbers from 1 per document). */
export const FRAME_ID_BASE = 100_000;

/** Cross-origin frames read per capture (a page of ad frames is not collected a dozen times over). */
const MAX_FRAMES = 8;
const MIN_SIDE = 20;

interface Box {
  id: number;
  /** The content box's top-left, in top-viewport coordinates. */
  x: number;
  y: number;
  /** The border box, to match it with Playwright's frame. */
  bx: number;
  by: number;
  bw: number;
  bh: number;
}

// In the top document's world: each iframe the collector numbered, its content box; the one
// with id `scrollId` is first brought into view (an element in it is about to be acted on).
const FRAME_BOXES = `(scrollId) => {
  const ids = globalThis.__sightlineCollectorState__ && globalThis.__sightlineCollectorState__.ids;
  const out = [];
  if (!ids) return out;
  for (const f of document.querySelectorAll("iframe, frame")) {
    const id = ids.get(f);
    if (id === undefined) continue;
    let r = f.getBoundingClientRect();
    if (id === scrollId && (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)) {
      f.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      r = f.getBoundingClientRect();
    }
    const cs = getComputedStyle(f);
    out.push({ id, x: r.left + f.clientLeft + (parseFloat(cs.paddingLeft) || 0), y: r.top + f.clientTop + (parseFloat(cs.paddingTop) || 0), bx: r.left, by: r.top, bw: r.width, bh: r.height });
  }
  return out;
}`;

interface Slot {
  k: number;
  frame: Frame;
  /** The iframe element's id in the top document. */
  iframeId: number;
}

/** Moves a frame's raw elements (and their own frames') into the top page's ids and coordinates. */
function translate(els: RawElement[], k: number, dx: number, dy: number): RawElement[] {
  return els.map((e) => {
    const out: RawElement = { ...e, id: k * FRAME_ID_BASE + e.id, rect: { ...e.rect, x: e.rect.x + dx, y: e.rect.y + dy } };
    const c = out as RawElement & { center_x?: number; center_y?: number; doc_y?: number };
    if (typeof c.center_x === "number") c.center_x += dx;
    if (typeof c.center_y === "number") c.center_y += dy;
    if (typeof c.doc_y === "number") c.doc_y += dy;
    if (Array.isArray(e.iframe_content) && e.iframe_content.length) out.iframe_content = translate(e.iframe_content as RawElement[], k, dx, dy);
    const a = out.attributes as Record<string, string | null> | undefined;
    if (a) out.attributes = { ...a, in_frame: "cross-origin" };
    return out;
  });
}

type MainCall = <K extends PageCallName>(name: K, args: PageCallArgs<K>) => Promise<PageCallResult<K>>;
type WorldCall = <K extends PageCallName>(world: SightlineWorld, name: K, args: PageCallArgs<K>) => Promise<PageCallResult<K>>;

export class CrossFrames implements CallRouter {
  private readonly slots = new Map<number, Slot>();
  private readonly kOf = new WeakMap<Frame, number>();
  private next = 1;
  /** The frame of the element the last locate found (null: the top document). */
  private current: Slot | null = null;

  /** `callIn`: a page-agent call in a given world (the driver's, with the agent's scripts injected). */
  constructor(
    private readonly page: Page,
    private readonly callIn: WorldCall,
  ) {}

  private crossFrames(): Frame[] {
    const main = this.page.mainFrame();
    const top = originOf(main.url());
    return main.childFrames().filter((f) => !f.isDetached() && /^https?:/.test(f.url()) && originOf(f.url()) !== top);
  }

  private boxes(scrollId: number | null): Promise<Box[]> {
    return SightlineWorld.of(this.page).call<Box[]>(FRAME_BOXES, [scrollId]);
  }

  /** Collects every cross-origin frame of the top document into `req` (in place), under its iframe element. */
  async merge(req: SnapshotRequest, collector: Record<string, unknown>): Promise<SnapshotRequest> {
    const empty = req.raw_elements.filter((e) => (e.attributes as Record<string, unknown> | undefined)?.frame === "cross-origin");
    if (!empty.length) return req;
    const frames = this.crossFrames().slice(0, MAX_FRAMES);
    if (!frames.length) return req;
    const boxes = await this.boxes(null);
    await Promise.all(
      frames.map(async (frame) => {
        const fb = await frame
          .frameElement()
          .then((h) => h.boundingBox())
          .catch(() => null);
        // A frame too small to hold a control (a tracking pixel, a hidden ad slot) is not read.
        if (!fb || fb.width < MIN_SIDE || fb.height < MIN_SIDE) return;
        const box = boxes.find((b) => Math.abs(b.bx - fb.x) < 2 && Math.abs(b.by - fb.y) < 2 && Math.abs(b.bw - fb.width) < 2 && Math.abs(b.bh - fb.height) < 2);
        const raw = box && empty.find((e) => e.id === box.id);
        if (!box || !raw) return;
        let k = this.kOf.get(frame);
        if (k === undefined) this.kOf.set(frame, (k = this.next++));
        this.slots.set(k, { k, frame, iframeId: box.id });
        try {
          const json = await SightlineWorld.ofFrame(frame).call<string>(COLLECT, [collector], [collectorScript()]);
          const body = JSON.parse(json) as SnapshotRequest;
          raw.iframe_content = translate(body.raw_elements, k, box.x, box.y);
        } catch {
          // The frame went away or navigated meanwhile: it stays reported without content.
        }
      }),
    );
    return req;
  }

  private slotOf(id: number): { slot: Slot | null; local: number } {
    if (id < FRAME_ID_BASE) return { slot: null, local: id };
    const k = Math.floor(id / FRAME_ID_BASE);
    const slot = this.slots.get(k);
    return { slot: slot && !slot.frame.isDetached() ? slot : null, local: id % FRAME_ID_BASE };
  }

  async call<K extends PageCallName>(name: K, args: PageCallArgs<K>, main: MainCall): Promise<PageCallResult<K>> {
    const world = (s: Slot) => SightlineWorld.ofFrame(s.frame);
    if (name === "locate" || name === "describe") {
      const id = (args as { id: number }).id;
      if (id < FRAME_ID_BASE) {
        this.current = null;
        return main(name, args);
      }
      const { slot, local } = this.slotOf(id);
      if (name === "describe") return (slot ? this.callIn(world(slot), "describe", { id: local }) : null) as PageCallResult<K>;
      this.current = slot;
      if (!slot) return { found: false, x: 0, y: 0, hits: false, tag: "", inputType: null, editable: false } as PageCallResult<K>;
      const box = (await this.boxes(slot.iframeId)).find((b) => b.id === slot.iframeId);
      const t = await this.callIn(world(slot), "locate", { id: local });
      if (!box) return { ...t, found: false } as PageCallResult<K>;
      return { ...t, x: t.x + box.x, y: t.y + box.y } as PageCallResult<K>;
    }
    if (name === "watchStart") {
      const frames = [...this.slots.values()].filter((s) => !s.frame.isDetached());
      const [m, ...f] = await Promise.all([main("watchStart", {}), ...frames.map((s) => this.callIn(world(s), "watchStart", {}).catch(() => null))]);
      if (!frames.length) return m as PageCallResult<K>;
      return JSON.stringify({ m, f: frames.map((s, i) => [s.k, f[i]]) }) as PageCallResult<K>;
    }
    if (name === "watchSettle") {
      const a = args as PageCallArgs<"watchSettle">;
      if (!a.token.startsWith("{")) return main(name, args);
      const t = JSON.parse(a.token) as { m: string; f: [number, string | null][] };
      const [m, ...f] = await Promise.all([
        main("watchSettle", { ...a, token: t.m }),
        ...t.f.map(([k, tok]) => {
          const s = this.slots.get(k);
          return s && tok ? this.callIn(world(s), "watchSettle", { ...a, token: tok }).catch(() => 0) : Promise.resolve(0);
        }),
      ]);
      return (m < 0 ? m : m + f.reduce((n, x) => n + Math.max(0, x), 0)) as PageCallResult<K>;
    }
    // The calls that act on the located element: in its world.
    if (this.current && (name === "domClick" || name === "focus" || name === "selectOption" || name === "checkedState" || name === "submitForm")) {
      return this.callIn(world(this.current), name, args);
    }
    return main(name, args);
  }
}
