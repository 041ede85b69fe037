// IIFE entry (dist/collector.js): defines globalThis.sightline in any page it is injected into.
// Injecting it twice keeps the first install's state (ids, mutation clock live on the global).
import { collect, collectJSON, read, readBlocks, receiveListenerMarks, revealStreamed, version } from "./index.js";
import { installMutationClock } from "./state.js";

const api = { collect, collectJSON, read, readBlocks, receiveListenerMarks, revealStreamed, version };
(globalThis as unknown as { sightline: typeof api }).sightline = api;
// Start the mutation clock at injection, so quiet_ms means "since the last DOM change".
if (typeof document !== "undefined") installMutationClock(document);
