// Unlisted script, injected with chrome.scripting into the extension's isolated world.
import { defineUnlistedScript } from "#imports";
import { createPageAgent, type PageAgent } from "../src/page-agent.js";

declare global {
  // eslint-disable-next-line no-var
  var __sightlineAgent: PageAgent | undefined;
}

export default defineUnlistedScript(() => {
  globalThis.__sightlineAgent ??= createPageAgent();
});
