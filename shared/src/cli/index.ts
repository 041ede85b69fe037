// The `sightline` CLI as a module (main.ts is the executable).
export { run, USAGE, type RunContext } from "./run.js";
export { EXIT, EXIT_TABLE, CliError, describeFailure, type ExitCode } from "./exit-codes.js";
