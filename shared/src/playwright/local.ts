// Local mode: the refinement engine the server runs, in this process, with the same learned
// goal reranker the server loads by default (SIGHTLINE_ML_RERANK read by rank/setting.ts, as the
// server reads it; SIGHTLINE_RANK_MODEL: another model file). So API and local mode rank the
// same capture the same way.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SNAPSHOT_DEFAULT_CAP, type SnapshotRequest } from "../contract/index.js";
import { refineSnapshot } from "../refine/index.js";
import { createLinearReranker, parseRerankSetting, type LinearModel, type Reranker } from "../rank/index.js";
import type { PageSnapshot } from "./types.js";

/** The committed model: shared/src/rank/model.json (from src/playwright or dist/playwright alike). */
export function defaultModelPath(): string {
  return fileURLToPath(new URL("../../src/rank/model.json", import.meta.url));
}

let cached: { key: string; reranker: Reranker | null } | null = null;

/** The reranker local mode uses, decided like the server's (loaded once per process). */
export function localReranker(env: NodeJS.ProcessEnv = process.env): Reranker | null {
  // One rule with the server (an unreadable value counts as auto here: the SDK does not refuse to run).
  if (parseRerankSetting(env.SIGHTLINE_ML_RERANK) === "off") return null;
  const file = env.SIGHTLINE_RANK_MODEL?.trim() || defaultModelPath();
  if (cached?.key === file) return cached.reranker;
  let reranker: Reranker | null = null;
  try {
    reranker = createLinearReranker(JSON.parse(readFileSync(file, "utf8")) as LinearModel);
  } catch {
    // No or bad model file: heuristic goal ranking, as on the server.
  }
  cached = { key: file, reranker };
  return reranker;
}

/**
 * Refines a request in this process exactly as a default server would. `reranker`: undefined
 * = decide like the server (above), null = heuristic ranking only.
 */
export function refineLocally(req: SnapshotRequest, cap: number = SNAPSHOT_DEFAULT_CAP, reranker?: Reranker | null): PageSnapshot {
  const result = refineSnapshot(req, { cap, reranker: reranker === undefined ? localReranker() : reranker });
  return {
    status: "success",
    url: req.url,
    timestamp: new Date().toISOString(),
    credits_used: 0,
    credits_remaining: null,
    error: null,
    ...result,
    mode: "local",
    request: req,
  };
}
