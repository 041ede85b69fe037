// Types of typecheck.mjs, for the tests that read its results.
export type CheckName = "build" | "isomorphic" | "browser" | "extension";
export interface CheckResult {
  name: CheckName;
  /** "" when the check passed, else what tsc printed. */
  output: string;
  ms: number;
}
export declare const STAMP: string;
export declare function runCheck(name: CheckName): string;
export declare function sourcesDigest(): string;
export declare function recordedResult(name: CheckName): CheckResult | null;
export declare function checkOutput(name: CheckName): string;
