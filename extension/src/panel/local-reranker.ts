// The learned reranker for local mode: the same model file the server loads by default
// (shared/src/rank/model.json), bundled at build time (no remote code), so local mode ranks a
// capture exactly as the backend does. Without the file, ranking stays heuristic, as on a server
// without a model (ml_rerank says why).
import { createLinearReranker, type Reranker } from "@sightline/shared/rank";

interface GlobImport {
  glob<T>(pattern: string, opts: { eager: true; import: "default" }): Record<string, T>;
}

// Vite inlines the file here when it exists and yields {} when it does not.
const files = (import.meta as unknown as GlobImport).glob<unknown>("../../../shared/src/rank/model.json", {
  eager: true,
  import: "default",
});

let cached: Reranker | null | undefined;

export function localReranker(): Reranker | null {
  if (cached === undefined) {
    const model = Object.values(files)[0];
    try {
      cached = model === undefined ? null : createLinearReranker(model);
    } catch {
      cached = null;
    }
  }
  return cached;
}
