/** Collector version, reported as `globalThis.sightline.version` (bump when output changes). */
export const COLLECTOR_VERSION = "0.1.0";
