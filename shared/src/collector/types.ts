// Public types of the collector. The request body is the contract's SnapshotRequest.
import type { ClientDiagnostics, ClientMetrics, RawElement } from "../contract/index.js";

export interface CollectOptions {
  /** Stop after this many raw elements, frames included (default 8000). */
  maxElements?: number;
  /** Hit-test in-viewport elements for occlusion (default true). */
  occlusion?: boolean;
  /** Walk same-origin iframes (default true). */
  frames?: boolean;
  /** Maximum characters of `text` per element (default 200). */
  maxTextLength?: number;
  /** Only keep elements that intersect the viewport (default false: the whole page). */
  viewportOnly?: boolean;
  /**
   * Also report every element whose role is not generic (paragraphs, table cells, emphasis…)
   * and, with span/div, generic ones: for accessibility audits (default false).
   */
  allRoles?: boolean;
  /** Add per-phase times (ms) as client_metrics.phases_ms (for benchmarks). */
  timings?: boolean;
}

export interface CollectResult {
  url: string;
  viewport: { width: number; height: number };
  raw_elements: RawElement[];
  client_metrics: ClientMetrics;
  client_diagnostics: ClientDiagnostics;
}

export interface ReadOptions {
  /** `markdown` (default) or `text`. */
  format?: "markdown" | "text";
  /** Maximum characters of `content` (default: no limit). */
  contentLimit?: number;
}

export interface ReadResult {
  title: string;
  description: string;
  content: string;
  /** Sightline addition: which extractor produced `content` (diagnostics). */
  extractor?: "readability" | "main-content" | "none";
  /** Sightline addition: text lengths of both candidates (diagnostics). */
  stats?: { readability_chars: number; main_content_chars: number };
}
