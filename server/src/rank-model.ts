// Loads the learned goal reranker's model, once at start, as config.mlRerank says
// (SIGHTLINE_ML_RERANK: shared/src/rank/setting.ts). SIGHTLINE_RANK_MODEL: path of the model JSON (default: the committed
// shared/src/rank/model.json written by `npm run train:rank`). A missing or malformed file never
// stops the server: goal ranking stays heuristic and ml_rerank says it is disabled.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createLinearReranker, type Reranker } from "@sightline/shared/rank";
import type { Logger } from "pino";
import type { ServerConfig } from "./config.js";

export function defaultRankModelPath(): string {
  const pkg = createRequire(import.meta.url).resolve("@sightline/shared/package.json");
  return join(dirname(pkg), "src", "rank", "model.json");
}

/** The reranker a rank model JSON describes (throws on a malformed model). */
export const rerankerFromModel = (model: unknown): Reranker => createLinearReranker(model);

/** The loaded model's JSON (refinement workers build their own reranker from it) and reranker. */
export interface LoadedRankModel {
  model: unknown;
  reranker: Reranker;
}

export async function loadRankModel(config: ServerConfig, logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<LoadedRankModel | null> {
  if (config.mlRerank === "off") return null;
  const file = env.SIGHTLINE_RANK_MODEL?.trim() || defaultRankModelPath();
  try {
    const model: unknown = JSON.parse(await readFile(file, "utf8"));
    const reranker = rerankerFromModel(model);
    logger.info({ model: reranker.name, file }, "goal reranker loaded");
    return { model, reranker };
  } catch (err) {
    logger.warn({ file, err: err instanceof Error ? err.message : String(err) }, "goal reranker not loaded; goal ranking stays heuristic");
    return null;
  }
}
