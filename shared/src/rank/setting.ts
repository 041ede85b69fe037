// SIGHTLINE_ML_RERANK, read one way by the server and by the SDK's local mode: unset (auto) =
// use the learned reranker when its model file loads; 1/true/yes/on = use it (a missing model
// is reported); 0/false/no/off = heuristic goal ranking only.
export type RerankSetting = "auto" | "on" | "off";

/** The setting a value of SIGHTLINE_ML_RERANK asks for, or null when the value means nothing. */
export function parseRerankSetting(raw: string | undefined): RerankSetting | null {
  const v = raw?.trim().toLowerCase();
  if (v === undefined || v === "") return "auto";
  if (["1", "true", "yes", "on"].includes(v)) return "on";
  if (["0", "false", "no", "off"].includes(v)) return "off";
  return null;
}
