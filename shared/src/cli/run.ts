// Dispatches `sightline <command>` and turns every failure into a message and an exit code.
import { describeFailure, EXIT, EXIT_TABLE, type ExitCode } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { cliSettings } from "./settings.js";
import { progress } from "./spinner.js";

export const USAGE = `usage: sightline <command> [options]

Commands:
  observe URL    the server renders URL: Markdown (read), elements (map) or a screenshot (visual)
  snapshot URL   open URL in local headless Chromium and rank its elements (API or --local)
  mcp            an MCP server on stdio: the person's shared tabs (via the server) or --headless
  replay LOG     perform an agent's activity log again in local headless Chromium

Run \`sightline <command> --help\` for the options of a command.

Environment:
  SIGHTLINE_BASE_URL   server address (default http://127.0.0.1:8787)
  SIGHTLINE_API_KEY    API key (for a loopback server, <SIGHTLINE_DATA_DIR or ./data>/dev-key
                       written by \`npm start\` is used when unset)
  CHROMIUM_PATH        Chromium for \`snapshot\` (default /usr/bin/chromium)

Exit codes:
${EXIT_TABLE.map(([code, what]) => `  ${code}  ${what}`).join("\n")}`;

export interface RunContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
}

export async function run(argv: string[], ctx: RunContext): Promise<ExitCode> {
  const [command, ...rest] = argv;
  const quiet = rest.includes("-q") || rest.includes("--quiet");
  const settings = cliSettings(ctx.env, ctx.cwd);
  const io: CliIo = {
    out: (t) => void ctx.stdout.write(t),
    err: (t) => void ctx.stderr.write(t),
    progress: progress(ctx.stderr, !quiet),
    settings,
    env: ctx.env,
    cwd: ctx.cwd,
  };
  try {
    switch (command) {
      // Commands load on demand: `--help` and usage errors should not pay for zod,
      // playwright-core and the tokenizer tables (seconds on a busy machine).
      case "observe":
        await (await import("./observe.js")).observeCommand(rest, io);
        break;
      case "snapshot":
        await (await import("./snapshot.js")).snapshotCommand(rest, io);
        break;
      case "mcp":
        await (await import("./mcp.js")).mcpCommand(rest, io);
        break;
      case "replay":
        await (await import("./replay.js")).replayCommand(rest, io);
        break;
      case undefined:
      case "help":
      case "-h":
      case "--help":
        io.out(`${USAGE}\n`);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        io.err(`sightline: unknown command "${command}"\n\n${USAGE}\n`);
        return EXIT.usage;
    }
    return EXIT.ok;
  } catch (err) {
    io.progress.stop();
    const { message, exitCode } = describeFailure(err, settings.baseUrl);
    io.err(`sightline: ${message}\n`);
    if (exitCode === EXIT.internal && err instanceof Error && ctx.env.SIGHTLINE_DEBUG) io.err(`${err.stack}\n`);
    return exitCode;
  }
}
