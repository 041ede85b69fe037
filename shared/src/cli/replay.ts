// `sightline replay LOG`: performs the actions of an activity log again in a headless Chromium
// (the same page flow an agent went through), step by step, and says where each one ended.
import { readFile } from "node:fs/promises";
import { ALLOW_FLAG, hostPolicy } from "./egress.js";
import { CliError, EXIT } from "./exit-codes.js";
import type { CliIo } from "./io.js";

export const REPLAY_USAGE = `usage: sightline replay LOG [--secret "NAME=VALUE"]... [--allow-private-hosts LIST]

  LOG        an activity log (JSON Lines: sightline mcp --headless --log, or the panel's export)
  --secret   the value of a field the log masks (a password), by the field's name
  --allow-private-hosts LIST
             hosts the replay may reach although private or loopback (else
             SIGHTLINE_ALLOW_PRIVATE_HOSTS; by default public addresses only, as in
             sightline mcp --headless)

Runs in a local headless Chromium (CHROMIUM_PATH); nothing is charged.`;

export async function replayCommand(args: string[], io: CliIo): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    io.out(`${REPLAY_USAGE}\n`);
    return;
  }
  const secrets: Record<string, string> = {};
  let file: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--secret") {
      const kv = args[++i] ?? "";
      const eq = kv.indexOf("=");
      if (eq <= 0) throw new CliError(`--secret takes NAME=VALUE\n\n${REPLAY_USAGE}`, EXIT.usage);
      secrets[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else if (args[i] === ALLOW_FLAG) i++;
    else if (args[i] === "-q" || args[i] === "--quiet") continue;
    else if (args[i].startsWith("-") || file) throw new CliError(`unexpected "${args[i]}"\n\n${REPLAY_USAGE}`, EXIT.usage);
    else file = args[i];
  }
  if (!file) throw new CliError(`no log given\n\n${REPLAY_USAGE}`, EXIT.usage);
  const policy = hostPolicy(args, io.env, REPLAY_USAGE);
  const { parseJsonLines, replayable, replayEntry, AgentSession, MASK } = await import("../agent/index.js");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`, EXIT.usage);
  }
  let entries;
  try {
    entries = replayable(parseJsonLines(text));
  } catch (err) {
    throw new CliError(`${file}: ${(err as Error).message}`, EXIT.usage);
  }
  if (!entries.length) throw new CliError(`${file} has no action to replay`, EXIT.usage);
  // Every masked value must be given before anything runs: a replay never stops half-way for it.
  for (const e of entries) {
    const name = e.target?.name ?? "";
    if (e.action?.kind === "type" && e.action.text === MASK && !Object.keys(secrets).some((k) => k.trim().toLowerCase() === name.trim().toLowerCase())) {
      throw new CliError(`the log masks what was typed into "${name}": give it with --secret "${name}=VALUE"`, EXIT.usage);
    }
  }
  // Likewise every URL the log navigates to (and where it starts) must be one the policy allows.
  const { checkAgentUrl } = await import("../mcp/egress.js");
  const starts = entries[0].action?.kind !== "navigate" && entries[0].url ? [{ step: 0, url: entries[0].url }] : [];
  const visits = entries.flatMap((e, i) => (e.action?.kind === "navigate" ? [{ step: i + 1, url: e.action.url }] : []));
  for (const { step, url } of [...starts, ...visits]) {
    await checkAgentUrl(url, policy).catch((err: Error) => {
      throw new CliError(`${step ? `step ${step} (navigate)` : "the log's first page"}: ${err.message}`, EXIT.usage);
    });
  }
  io.progress.stop();
  const { launchBrowser } = await import("./browser.js");
  const { HeadlessBackend, localRefine } = await import("../mcp/index.js");
  const browser = await launchBrowser(io.env);
  const backend = await HeadlessBackend.start({ browser, ownsBrowser: true, policy });
  try {
    const session = new AgentSession({ backend, refine: localRefine(null) });
    // Start where the log started, unless its first step is a navigation anyway.
    if (entries[0].action?.kind !== "navigate" && entries[0].url) await session.act(undefined, { kind: "navigate", url: entries[0].url });
    let step = 0;
    for (const entry of entries) {
      step++;
      const what = entry.target ? `${entry.tool} ${entry.target.role} "${entry.target.name}"` : entry.tool;
      try {
        const a = await replayEntry(session, entry, secrets);
        io.out(`${step}. ${what} → ${a.outcome} ${a.url}\n`);
      } catch (err) {
        throw new CliError(`step ${step} (${what}) failed: ${(err as Error).message}`, EXIT.internal);
      }
    }
  } finally {
    await backend.close();
  }
}
