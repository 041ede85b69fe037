// The in-page collector (browser layer): collect() builds a /v1/snapshot request body from the
// live DOM, read() extracts the main content as Markdown or text. The same functions are
// bundled as an IIFE (bundle.ts → dist/collector.js) defining globalThis.sightline.
import { collect } from "./collect.js";
import { read } from "./read/read.js";
import { snapshotJSON } from "./snapshot-json.js";
import type { CollectOptions } from "./types.js";

export { collect, collectSync } from "./collect.js";
export { read, readBlocks } from "./read/read.js";
export { revealStreamed } from "./read/streamed.js";
export { detectCaptcha } from "./captcha.js";
export { receiveListenerMarks } from "./listeners.js";
export { COLLECTOR_VERSION as version } from "./version.js";
export type { CollectOptions, CollectResult, ReadOptions, ReadResult } from "./types.js";

/** collect() as one JSON string: moving one string out of a page is far cheaper than objects. */
export async function collectJSON(options: CollectOptions = {}): Promise<string> {
  return snapshotJSON(await collect(options));
}
