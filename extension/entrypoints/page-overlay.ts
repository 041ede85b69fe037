// Unlisted script, injected with chrome.scripting into the extension's isolated world.
import { defineUnlistedScript } from "#imports";
import { createPageOverlay, type PageOverlay } from "../src/page-overlay.js";

declare global {
  // eslint-disable-next-line no-var
  var __sightlineOverlay: PageOverlay | undefined;
}

export default defineUnlistedScript(() => {
  globalThis.__sightlineOverlay ??= createPageOverlay();
});
