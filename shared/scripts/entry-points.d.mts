export interface SourceEntry {
  /** The import name, e.g. "@sightline/shared/agent/core". */
  name: string;
  /** The TypeScript source it is built from (absolute path). */
  source: string;
}
export function sourceEntries(): SourceEntry[];
export function sourceAliases(): Record<string, string>;
