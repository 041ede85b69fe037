// `sightline snapshot URL`: open the page in local headless Chromium, collect it, refine it
// through the API (POST /v1/snapshot) or locally, print the ranked elements.
import { parseArgs } from "node:util";
import { Sightline } from "../client/sightline.js";
import type { PageSnapshot } from "../playwright/index.js";
import { CliError, EXIT } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { requireKey } from "./observe.js";
import { oneUrl, parsed, positiveInt, seconds } from "./parse.js";
import { snapshotTable } from "./table.js";

export const SNAPSHOT_USAGE = `usage: sightline snapshot URL [options]

Opens URL in headless Chromium (CHROMIUM_PATH or /usr/bin/chromium), collects its elements
and ranks them through the server (POST /v1/snapshot, 1 credit) or locally (--local).

  --goal "TEXT"             rank for this goal (e.g. "search for flights")
  --local                   refine in this process: no server, no key, no credits
  --limit N                 at most N elements (default 50, server cap 100)
  --json                    print the snapshot response as JSON
  --prompt                  print the compact LLM prompt text (toPrompt) instead of the table
  --budget N                token budget for --prompt (default 1000)
  --viewport WxH            browser viewport (default 1280x900)
  --timeout SECONDS         page load and API timeout (default 30)
  -q, --quiet               no progress on stderr`;

const OPTIONS = {
  goal: { type: "string", short: "g" },
  local: { type: "boolean" },
  limit: { type: "string" },
  json: { type: "boolean" },
  prompt: { type: "boolean" },
  budget: { type: "string" },
  viewport: { type: "string" },
  timeout: { type: "string" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
} as const;

function viewport(v: string | undefined): { width: number; height: number } {
  if (v === undefined) return { width: 1280, height: 900 };
  const m = /^(\d{2,5})x(\d{2,5})$/.exec(v);
  if (!m) throw new CliError(`--viewport must look like 1280x900, got "${v}"`, EXIT.usage);
  return { width: Number(m[1]), height: Number(m[2]) };
}

export async function snapshotCommand(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parsed(() => parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true }), SNAPSHOT_USAGE);
  if (values.help) return io.out(`${SNAPSHOT_USAGE}\n`);
  const url = oneUrl(positionals, SNAPSHOT_USAGE);
  const limit = positiveInt(values.limit, "--limit");
  const budget = positiveInt(values.budget, "--budget");
  const vp = viewport(values.viewport);
  const timeoutMs = seconds(values.timeout, "--timeout") ?? 30_000;
  const local = values.local === true;
  // Fail on a missing key before spending seconds on a browser.
  const client = local
    ? undefined
    : new Sightline({
        baseUrl: io.settings.baseUrl,
        apiKey: requireKey(io),
        timeoutMs,
        onRetry: (r) => io.progress.update(`rate limited (${r.status}); retrying in ${Math.ceil(r.delayMs / 1000)} s`),
      });

  io.progress.update("starting Chromium");
  const { launchBrowser } = await import("./browser.js");
  const { snapshot } = await import("../playwright/snapshot.js");
  const { waitForStable } = await import("../playwright/stable.js");
  const browser = await launchBrowser(io.env);
  let snap: PageSnapshot;
  try {
    const page = await browser.newPage({ viewport: vp });
    io.progress.update(`loading ${url}`);
    try {
      await page.goto(url, { waitUntil: "load", timeout: timeoutMs });
    } catch (err) {
      throw new CliError(`the page did not load: ${(err as Error).message.split("\n")[0]}`, EXIT.browser);
    }
    io.progress.update("waiting for the page to settle");
    await waitForStable(page, { quietMs: 300, timeoutMs: Math.min(5000, timeoutMs) });
    io.progress.update(local ? "collecting and refining locally" : "collecting and refining via the API");
    snap = await snapshot(page, { goal: values.goal, limit, mode: local ? "local" : "api", client });
  } finally {
    await browser.close().catch(() => undefined);
    io.progress.stop();
  }

  if (values.json) {
    const { request: _request, ...response } = snap;
    io.out(`${JSON.stringify(response, null, 2)}\n`);
  } else if (values.prompt) {
    const { toPrompt } = await import("../prompt/index.js");
    const p = toPrompt(snap, { tokenBudget: budget ?? 1000 });
    io.out(`${p.text}\n`);
    io.err(`${p.tokens} tokens, ${p.included.length} elements (${p.omitted.length} omitted)\n`);
  } else {
    io.out(`${snapshotTable(snap.elements)}\n`);
  }
  const credits = snap.mode === "api" ? `, ${snap.credits_used} credit used, ${snap.credits_remaining} left` : "";
  const goal = values.goal ? `, goal "${values.goal}"` : "";
  io.err(`${snap.elements.length} of ${snap.request.raw_elements.length} raw elements, ${snap.mode} mode${goal}${credits}\n`);
}
