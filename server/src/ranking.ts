// The hook where the learned reranker is loaded (SIGHTLINE_ML_RERANK). The ranking work adds
// the model loader in shared/src/rank; until then no model exists and goal ranking stays
// heuristic (ml_rerank says enabled:false, applied:false with its documented reason).
import type { Reranker } from "@sightline/shared/rank";
import type { Logger } from "pino";
import type { ServerConfig } from "./config.js";

export async function loadReranker(config: ServerConfig, logger: Logger): Promise<Reranker | null> {
  if (!config.mlRerank) return null;
  logger.warn("SIGHTLINE_ML_RERANK is set but no reranker model loader exists yet; ranking stays heuristic");
  return null;
}
