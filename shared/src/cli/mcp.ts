// `sightline mcp`: Sightline as an MCP server on stdio, for MCP clients that launch a command.
//   sightline mcp                 relay to the server's POST /mcp: the person's shared tabs
//   sightline mcp --headless      a local headless Chromium, refined in this process (free)
//   sightline mcp --headless --api   the same, snapshots refined (and charged) by the server
import { ALLOW_FLAG, hostPolicy } from "./egress.js";
import { CliError, EXIT } from "./exit-codes.js";
import type { CliIo } from "./io.js";

export const MCP_USAGE = `usage: sightline mcp [--structured-content] [--headless [--api] [--url URL] [--log FILE] [--allow-private-hosts LIST]]

  (no option)   relay to the Sightline server's /mcp (SIGHTLINE_BASE_URL, SIGHTLINE_API_KEY):
                the agent works in the tabs the person shared from the extension
  --headless    drive a headless Chromium on this machine (CHROMIUM_PATH) instead
  --structured-content
                send every answer also as structured content (JSON) beside its text; by
                default only calls that ask for it (_meta "sightline.dev/structured") get it
  --api         with --headless: refine snapshots and screenshot marks through the server
                (1 credit each)
  --url URL     with --headless: open URL first (before the server answers; without it the
                server answers at once and Chromium starts in the background)
  --log FILE    with --headless: append every action to FILE (JSON Lines; sightline replay FILE)
  --allow-private-hosts LIST
                with --headless: hosts the agent may reach although private or loopback
                (like the server's SIGHTLINE_ALLOW_PRIVATE_HOSTS, which is read when this is
                absent): host names, .suffixes, IPs, CIDRs, or * for everything. By default the
                agent's browser reaches public addresses only, as /v1/observe does

Speaks MCP on stdin/stdout; logs go to stderr.`;

export async function mcpCommand(args: string[], io: CliIo): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    io.out(`${MCP_USAGE}\n`);
    return;
  }
  const known = new Set(["--headless", "--api", "--url", "--log", "--structured-content", ALLOW_FLAG, "-q", "--quiet"]);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--url" || args[i] === "--log" || args[i] === ALLOW_FLAG) i++;
    else if (!known.has(args[i])) throw new CliError(`unknown option "${args[i]}"\n\n${MCP_USAGE}`, EXIT.usage);
  }
  const headless = args.includes("--headless");
  const structuredContent = args.includes("--structured-content");
  const urlAt = args.indexOf("--url");
  const startUrl = urlAt >= 0 ? args[urlAt + 1] : undefined;
  if (urlAt >= 0 && !startUrl) throw new CliError(`--url needs a URL\n\n${MCP_USAGE}`, EXIT.usage);
  const logAt = args.indexOf("--log");
  const logFile = logAt >= 0 ? args[logAt + 1] : undefined;
  if (logAt >= 0 && !logFile) throw new CliError(`--log needs a file\n\n${MCP_USAGE}`, EXIT.usage);
  if (!headless && (args.includes("--api") || startUrl || logFile || args.includes(ALLOW_FLAG))) {
    throw new CliError(`--api, --url, --log and ${ALLOW_FLAG} go with --headless\n\n${MCP_USAGE}`, EXIT.usage);
  }
  const policy = hostPolicy(args, io.env, MCP_USAGE);
  io.progress.stop();
  const { settings } = io;
  const log = (line: string) => io.err(`${line}\n`);

  if (!headless) {
    if (!settings.apiKey) throw new CliError("no API key: set SIGHTLINE_API_KEY (the same account as the extension's)", EXIT.usage);
    const { relayToServer } = await import("../mcp/proxy.js");
    const { closed } = await relayToServer({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, log, structuredContent });
    log(`sightline mcp: relaying to ${settings.baseUrl}/mcp`);
    await closed;
    return;
  }
  if (startUrl) {
    // Refused before a browser starts; a refused redirect of it is caught by serveHeadless below.
    const { checkAgentUrl } = await import("../agent/backends/headless/egress.js");
    await checkAgentUrl(startUrl, policy).catch((err: Error) => {
      throw new CliError(`--url ${startUrl}: ${err.message}`, EXIT.usage);
    });
  }
  const { serveHeadless } = await import("../mcp/stdio.js");
  const { AgentError } = await import("../agent/core/errors.js");
  let client = null;
  if (args.includes("--api")) {
    if (!settings.apiKey) throw new CliError("--api needs an API key: set SIGHTLINE_API_KEY", EXIT.usage);
    const { Sightline } = await import("../client/index.js");
    client = new Sightline({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
  }
  // Launched in the background once the server answers (with --url: before); a browser that
  // cannot start is the first call's error.
  // playwright-core (seconds to load on a busy machine) is loaded then too, not before initialize.
  const browser = async () => (await import("./browser.js")).launchBrowser(io.env);
  const served = await serveHeadless({ browser, client, startUrl, logFile, policy, structuredContent }).catch((err: unknown) => {
    if (err instanceof AgentError && err.code === "bad_url") throw new CliError(`--url ${startUrl}: ${err.message}`, EXIT.usage);
    throw err;
  });
  const { closed } = served;
  log(`sightline mcp: serving on stdio, headless Chromium starting${client ? `, snapshots refined by ${settings.baseUrl}` : ""}`);
  await closed;
}
