// What a command needs from the process, passed in so commands stay testable in-process.
import type { CliSettings } from "./settings.js";
import type { Progress } from "./spinner.js";

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  progress: Progress;
  settings: CliSettings;
  env: NodeJS.ProcessEnv;
  cwd: string;
}
