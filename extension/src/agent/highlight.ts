// Shows the person which element an approval card is about: the overlay's highlight, scrolled to.
import { ensureInjected, exec } from "../inject.js";

type Overlay = { highlight(b: unknown, s?: unknown): boolean; scrollTo(b: unknown, s?: unknown): boolean };

/** Highlights element `id` of the tab (null: clears it). */
export async function highlight(tabId: number, id: number | null): Promise<void> {
  try {
    await ensureInjected(tabId);
    const box = id === null ? null : { id, rect: { x: 0, y: 0, width: 0, height: 0 } };
    await exec(
      tabId,
      (b: unknown) => {
        const a = (globalThis as unknown as { __sightlineOverlay: Overlay }).__sightlineOverlay;
        if (b) a.scrollTo(b);
        return a.highlight(b);
      },
      [box] as [unknown],
    );
  } catch {
    // The highlight is a help, not a condition.
  }
}
