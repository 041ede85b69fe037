// What a validated observe request will do and cost (spec 4.1): mode, engine, credits.
import { OBSERVE_CREDITS, type ObserveMode, type ObserveRequest } from "@sightline/shared/contract";
import type { EngineName } from "../browser/index.js";

export type ObserveEngine = EngineName | "capture";

export interface ObservePlan {
  mode: ObserveMode;
  engine: ObserveEngine;
  credits: number;
}

/**
 * read → performance, 1; map → performance 2 or precision 10; visual → precision, 10.
 * A caller-supplied `capture` renders nothing from the network: engine `capture`, charged as
 * the mode's base price (read 1, map 2, visual 10).
 */
export function planObserve(req: ObserveRequest): ObservePlan {
  const mode: ObserveMode = req.mode ?? "read";
  const captured = req.capture !== undefined && req.capture !== null;
  switch (mode) {
    case "read":
      return { mode, engine: captured ? "capture" : "performance", credits: OBSERVE_CREDITS.read };
    case "map": {
      if (captured) return { mode, engine: "capture", credits: OBSERVE_CREDITS.map.performance };
      const engine = req.options?.render_quality ?? "performance";
      return { mode, engine, credits: OBSERVE_CREDITS.map[engine] };
    }
    case "visual":
      return { mode, engine: captured ? "capture" : "precision", credits: OBSERVE_CREDITS.visual };
  }
}
