// Every passage of the page the person cannot see, for the activity log's follows_hidden_text
// (agent/provenance.ts). Judged per text run from layout and paint by the collector's
// visibility module; adjacent hidden runs are one passage; nothing is capped.
import { Sight } from "../collector/visibility/runs.js";

export function hiddenText(_args: Record<string, never>): string[] {
  return new Sight().passages(document);
}
