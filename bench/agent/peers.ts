// bench/agent/peers: Sightline's MCP server beside Playwright MCP and Chrome DevTools MCP, in one
// run, interleaved, each through the real MCP SDK client over stdio and LangChain's MCP adapter.
//
//   npm run bench:agent:peers        (7 runs; BENCH_QUICK=1: 1 run; BENCH_RUNS=N: N runs;
//                                    BENCH_PEERS_DUMP=DIR: every answer's text to DIR;
//                                    BENCH_PEERS_RUN_TIMEOUT_S: one server's run at most, default 240)
//
// Each run spawns every server afresh (in a rotating order), times `initialize`, lists its tools,
// and a scripted agent per server (no LLM: it finds refs by role and label in that server's own
// answers, bench/agent/peers/servers.ts) does a shop task on a fixture site on loopback: search
// "trail runner" → add to cart → cart → checkout → name, email, country, terms → place order. The
// task is complete when the site recorded that order. Then one snapshot of a big page (about
// 3,000 links and buttons, a long article, a 150-row table) per server. Every call is timed at the
// MCP request and counted in o200k tokens twice: the result's text items, and the content of the
// ToolMessage LangChain's adapter builds from the same result (which carries structuredContent
// and _meta when a server sends them; Sightline sends them only to clients that ask).
// Bounded: a timeout on every call and on every run, every server's process tree ended after its
// run, the peers' browsers allowed the fixture origin only.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens } from "@sightline/shared/prompt";
import { median } from "../lib/stats.mjs";
import { startRun } from "../lib/results.mjs";
import { BIG_TARGET, bigPage } from "./fixtures/big-page.js";
import { startSite } from "./fixtures/site.js";
import { chromiumVersion, killStragglers, packageVersion, PeerSession, type CallRecord } from "./peers/client.js";
import { CHROMIUM, CUSTOMER, PEERS, type BigPageAnswer, type Peer } from "./peers/servers.js";

const QUICK = process.env.BENCH_QUICK === "1";
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 1 : 7));
const RUN_TIMEOUT_MS = Number(process.env.BENCH_PEERS_RUN_TIMEOUT_S ?? 240) * 1000;
const benchDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(repoRoot, "shared/dist/cli/main.js");
if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (node .ci/setup.mjs --build)`);

const loadStart = loadavg();
const run = startRun("agent-peers", { title: "MCP browser servers side by side (Sightline, Playwright MCP, Chrome DevTools MCP)", quick: QUICK });
const site = await startSite();
const tag = site.origin.replace(/\d+$/, "PORT"); // the commands as recorded: the port changes run to run

const versions = {
  sightline: `${packageVersion(join(repoRoot, "shared"))} (this commit's shared/dist/cli/main.js)`,
  "@playwright/mcp": packageVersion(join(benchDir, "node_modules/@playwright/mcp")),
  "chrome-devtools-mcp": packageVersion(join(benchDir, "node_modules/chrome-devtools-mcp")),
  "@modelcontextprotocol/sdk": packageVersion(join(benchDir, "node_modules/@modelcontextprotocol/sdk")),
  "@langchain/mcp-adapters": packageVersion(join(benchDir, "node_modules/@langchain/mcp-adapters")),
  "@langchain/core": packageVersion(join(benchDir, "node_modules/@langchain/core")),
  chromium: chromiumVersion(CHROMIUM),
};
const commands = Object.fromEntries(
  PEERS.map((p) => {
    const c = p.command({ benchDir, repoRoot, origin: tag, tmp: "TMP" });
    const rel = (s: string) => s.replace(repoRoot, "").replace(process.execPath, "node");
    const env = Object.entries(c.env).filter(([k]) => !["PATH", "HOME", "LANG", "TZ", "TMPDIR"].includes(k)).map(([k, v]) => `${k}=${v}`);
    return [p.id, [...env, rel(c.command), ...c.args.map(rel)].join(" ")];
  }),
);
run.machine({ chromium: versions.chromium });

// ---- One run of one server -----------------------------------------------------------------
interface RunRecord {
  run: number;
  server: Peer["id"];
  position: number;
  ok: boolean;
  error?: string;
  server_version?: string;
  initialize_ms: number;
  initialize_cpu_ms: number;
  tools: number;
  tools_list_tokens: number;
  task?: {
    completed: boolean;
    confirmed_by_agent: boolean;
    ms: number;
    spawn_to_done_ms: number;
    text_tokens: number;
    message_tokens: number;
    largest_text: number;
    largest_message: number;
    /** [tool, kind, ms, text tokens, ToolMessage tokens, structuredContent?, error?] */
    calls: [string, string, number, number, number, boolean, boolean][];
  };
  big?: BigPageAnswer[];
  big_navigate_ms?: number;
  leftover_processes: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const compact = (c: CallRecord): [string, string, number, number, number, boolean, boolean] => [c.tool, c.kind, round1(c.ms), c.text_tokens, c.message_tokens, c.structured, c.error];

function orderOk(before: number): boolean {
  const placed = site.orders.slice(before);
  if (placed.length !== 1) return false;
  const [o] = placed;
  return o.name === CUSTOMER.name && o.email === CUSTOMER.email && o.country === CUSTOMER.countryCode && o.terms && o.items.length === 1 && o.items[0].sku === CUSTOMER.sku && o.items[0].qty === 1;
}

const tmpDirs: string[] = [];

async function runOne(peer: Peer, runIndex: number, position: number): Promise<RunRecord> {
  const tmp = mkdtempSync(join(tmpdir(), `bench-peers-${peer.id}-`));
  tmpDirs.push(tmp);
  const session = new PeerSession(peer.id, peer.command({ benchDir, repoRoot, origin: site.origin, tmp }));
  const rec: RunRecord = { run: runIndex + 1, server: peer.id, position, ok: false, initialize_ms: NaN, initialize_cpu_ms: NaN, tools: NaN, tools_list_tokens: NaN, leftover_processes: 0 };
  const ordersBefore = site.orders.length;
  let timer: NodeJS.Timeout | undefined;
  const work = (async () => {
    await session.start();
    rec.initialize_ms = round1(session.initializeMs);
    rec.initialize_cpu_ms = session.initializeCpuMs;
    rec.tools = session.toolCount;
    rec.tools_list_tokens = session.toolsListTokens;
    rec.server_version = session.serverVersion;
    const t0 = performance.now();
    const confirmed = await peer.task(session, site.origin);
    const ms = performance.now() - t0;
    const calls = session.calls.slice();
    rec.task = {
      completed: orderOk(ordersBefore),
      confirmed_by_agent: confirmed,
      ms: round1(ms),
      spawn_to_done_ms: round1(session.sinceSpawn()),
      text_tokens: calls.reduce((n, c) => n + c.text_tokens, 0),
      message_tokens: calls.reduce((n, c) => n + c.message_tokens, 0),
      largest_text: Math.max(...calls.map((c) => c.text_tokens)),
      largest_message: Math.max(...calls.map((c) => c.message_tokens)),
      calls: calls.map(compact),
    };
    rec.big = await peer.bigPage(session, site.origin);
    rec.big_navigate_ms = round1(session.calls.find((c) => c.kind === "navigate (big page)")?.ms ?? NaN);
    rec.ok = rec.task.completed;
  })();
  try {
    await Promise.race([
      work,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`run timed out after ${RUN_TIMEOUT_MS / 1000} s`)), RUN_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    rec.error = `${(err as Error).message.split("\n")[0].slice(0, 300)}`;
    console.error(`  ${peer.id} run ${runIndex + 1} failed: ${rec.error}\n  server log: ${session.log().slice(-600)}`);
  } finally {
    clearTimeout(timer);
    const { leftovers } = await session.close();
    rec.leftover_processes = leftovers + killStragglers([tmp]);
    if (process.env.BENCH_PEERS_DUMP) writeFileSync(join(process.env.BENCH_PEERS_DUMP, `${peer.id}-run${runIndex + 1}.txt`), session.answers.join("\n\n----\n"));
    await work.catch(() => undefined); // the aborted calls end once the server is gone
    rmSync(tmp, { recursive: true, force: true });
  }
  return rec;
}

// ---- The runs, interleaved -------------------------------------------------------------------
const records: RunRecord[] = [];
for (let r = 0; r < RUNS; r++) {
  const order = PEERS.map((_, i) => PEERS[(i + r) % PEERS.length]); // each server goes first in turn
  for (const [position, peer] of order.entries()) {
    const rec = await runOne(peer, r, position);
    records.push(rec);
    const t = rec.task;
    console.log(
      `run ${r + 1}/${RUNS} ${peer.id.padEnd(15)} ${rec.ok ? "completed" : "FAILED   "} init ${rec.initialize_ms} ms (${rec.initialize_cpu_ms} ms CPU) · task ${t?.ms ?? "-"} ms · ${t?.calls.length ?? "-"} calls · ${t?.text_tokens ?? "-"} text / ${t?.message_tokens ?? "-"} ToolMessage tokens${rec.leftover_processes ? ` · ${rec.leftover_processes} processes killed` : ""}`,
    );
  }
}
await site.close();
const stragglers = killStragglers(tmpDirs); // none expected: each run's were ended after it
const loadEnd = loadavg();

// ---- Figures ---------------------------------------------------------------------------------
const med = (xs: (number | undefined)[]) => {
  const v = xs.filter((x): x is number => typeof x === "number" && Number.isFinite(x));
  return v.length ? median(v) : NaN;
};
const spread = (xs: number[]) => (xs.length && Math.min(...xs) !== Math.max(...xs) ? `${Math.min(...xs)}–${Math.max(...xs)}` : null);
const byServer = (id: Peer["id"]) => records.filter((r) => r.server === id);
const taskCalls = (rs: RunRecord[], kind: string) => rs.flatMap((r) => (r.task?.calls ?? []).filter((c) => c[1] === kind).map((c) => c[2]));

interface Summary {
  runs: number;
  completed: number;
  tool_calls: number;
  text_tokens: number;
  message_tokens: number;
  text_tokens_spread: string | null;
  message_tokens_spread: string | null;
  largest_text: number;
  largest_message: number;
  initialize_ms: number;
  initialize_cpu_ms: number;
  first_call_ms: number;
  task_ms: number;
  spawn_to_done_ms: number;
  per_call_ms: Record<string, number>;
  tools: number;
  tools_list_tokens: number;
  structured_answers: number;
}
const KINDS = ["snapshot", "click", "type", "select", "press", "fill_form", "navigate", "navigate (big page)"];
const summaries = Object.fromEntries(
  PEERS.map((p) => {
    const rs = byServer(p.id);
    const done = rs.filter((r) => r.task);
    const per: Record<string, number> = {};
    for (const k of KINDS) {
      const xs = k === "navigate (big page)" ? rs.map((r) => r.big_navigate_ms ?? NaN).filter(Number.isFinite) : taskCalls(done, k);
      if (xs.length) per[k] = round1(median(xs));
    }
    const s: Summary = {
      runs: rs.length,
      completed: rs.filter((r) => r.task?.completed).length,
      tool_calls: med(done.map((r) => r.task!.calls.length)),
      text_tokens: med(done.map((r) => r.task!.text_tokens)),
      message_tokens: med(done.map((r) => r.task!.message_tokens)),
      text_tokens_spread: spread(done.map((r) => r.task!.text_tokens)),
      message_tokens_spread: spread(done.map((r) => r.task!.message_tokens)),
      largest_text: med(done.map((r) => r.task!.largest_text)),
      largest_message: med(done.map((r) => r.task!.largest_message)),
      initialize_ms: round1(med(rs.map((r) => r.initialize_ms))),
      initialize_cpu_ms: med(rs.map((r) => r.initialize_cpu_ms)),
      first_call_ms: round1(med(done.map((r) => r.task!.calls[0]?.[2]))),
      task_ms: round1(med(done.map((r) => r.task!.ms))),
      spawn_to_done_ms: round1(med(done.map((r) => r.task!.spawn_to_done_ms))),
      per_call_ms: per,
      tools: med(rs.map((r) => r.tools)),
      tools_list_tokens: med(rs.map((r) => r.tools_list_tokens)),
      structured_answers: med(done.map((r) => r.task!.calls.filter((c) => c[5]).length)),
    };
    return [p.id, s];
  }),
) as Record<Peer["id"], Summary>;

const cols = [{ label: `median of ${RUNS}`, format: "auto" as const }, ...PEERS.map((p) => ({ label: p.label, format: "auto" as const }))];
const row = (label: string, f: (s: Summary) => string | number | null) => [label, ...PEERS.map((p) => f(summaries[p.id]))];
const withSpread = (v: number, sp: string | null) => (sp ? `${v.toLocaleString("en-US")} (${sp})` : v);
const ms = (k: string) => (s: Summary) => s.per_call_ms[k] ?? null;
const callsOf = (id: Peer["id"]) => {
  const first = byServer(id).find((r) => r.task)?.task?.calls ?? [];
  const counts = new Map<string, number>();
  for (const c of first) counts.set(c[0], (counts.get(c[0]) ?? 0) + 1);
  return [...counts].map(([t, n]) => (n > 1 ? `${t} ×${n}` : t)).join(", ");
};

run.table({
  id: "task",
  title: `Shop task: search "trail runner" → add to cart → cart → checkout → name, email, country, terms → place order (${RUNS} interleaved run${RUNS === 1 ? "" : "s"})`,
  columns: cols,
  rows: [
    row("task completed (order recorded by the site)", (s) => `${s.completed}/${s.runs}`),
    row("tool calls", (s) => s.tool_calls),
    row("text tokens the agent reads, per task", (s) => withSpread(s.text_tokens, s.text_tokens_spread)),
    row("the same answers as LangChain ToolMessages", (s) => withSpread(s.message_tokens, s.message_tokens_spread)),
    row("answers carrying structuredContent", (s) => s.structured_answers),
    row("largest single answer, text (ToolMessage)", (s) => (Number.isFinite(s.largest_text) ? `${s.largest_text.toLocaleString("en-US")} (${s.largest_message.toLocaleString("en-US")})` : null)),
    row("initialize answered after spawn, ms", (s) => s.initialize_ms),
    row("CPU the server used until then, ms", (s) => s.initialize_cpu_ms),
    row("first call of the task, ms", (s) => s.first_call_ms),
    row("whole task (its calls), ms", (s) => s.task_ms),
    row("spawn → order placed, ms", (s) => s.spawn_to_done_ms),
    row("per call: snapshot, ms", ms("snapshot")),
    row("per call: click, ms", ms("click")),
    row("per call: type, ms", ms("type")),
    row("per call: select / press / fill form, ms", (s) => [s.per_call_ms.select, s.per_call_ms.press, s.per_call_ms.fill_form].map((x) => (x === undefined ? "-" : x.toLocaleString("en-US", { maximumFractionDigits: 0 }))).join(" / ")),
    row("per call: navigate (first, task), ms", ms("navigate")),
    row("per call: navigate (big page, browser up), ms", ms("navigate (big page)")),
    row("tools/list: tools", (s) => s.tools),
    row("tools/list: tokens", (s) => s.tools_list_tokens),
  ],
  note: `Calls per task: ${PEERS.map((p) => `${p.label}: ${callsOf(p.id)}`).join("; ")}. Token counts are o200k (gpt-tokenizer); a ToolMessage's tokens are those of its content as @langchain/mcp-adapters builds it (a string, or its content blocks as JSON when a block carries structuredContent). Times are medians over all runs (per call: over every call of that kind in every run); a range in brackets means the runs differed.`,
});

// Big page: one snapshot after navigating.
const bigHtml = bigPage();
const links = (bigHtml.match(/<a /g) ?? []).length;
const buttons = (bigHtml.match(/<button /g) ?? []).length;
const bigRows: (string | number | null)[][] = [];
const bigFigures: Record<string, unknown> = {};
for (const p of PEERS) {
  const answers = byServer(p.id).flatMap((r) => r.big ?? []);
  for (const what of [...new Set(answers.map((a) => a.what))]) {
    const as = answers.filter((a) => a.what === what);
    const entry = {
      text_tokens: med(as.map((a) => a.text_tokens)),
      message_tokens: med(as.map((a) => a.message_tokens)),
      ms: round1(med(as.map((a) => a.ms))),
      target_present: `${as.filter((a) => a.target_present).length}/${as.length}`,
      target_rank: p.id === "sightline" ? med(as.map((a) => a.target_rank ?? NaN)) : null,
    };
    bigFigures[`${p.id}: ${what}`] = entry;
    bigRows.push([p.label, what, entry.text_tokens, entry.message_tokens, entry.target_present, Number.isFinite(entry.target_rank) ? entry.target_rank : null, entry.ms]);
  }
}
run.table({
  id: "big-page",
  title: `Big page: ${links.toLocaleString("en-US")} links and ${buttons} buttons, a 40-paragraph article, a 150-row table (${countTokens(bigHtml).toLocaleString("en-US")} tokens of HTML); one answer after navigating`,
  columns: ["server", "call", { label: "text tokens", format: "int" }, { label: "ToolMessage tokens", format: "int" }, `"${BIG_TARGET}" in it`, { label: "its rank", format: "int" }, { label: "ms", format: "auto" }],
  rows: bigRows,
  note: `Sightline's goal: "edit order 1187". Medians over ${RUNS} run${RUNS === 1 ? "" : "s"}.`,
});

const failures = records.filter((r) => !r.ok);
run.figure("summary", summaries);
run.figure("big_page", { links, buttons, html_tokens: countTokens(bigHtml), answers: bigFigures });
run.figure("versions", versions);
run.figure("commands", commands);
run.figure("load_average", { start: loadStart.map((x) => Math.round(x * 100) / 100), end: loadEnd.map((x) => Math.round(x * 100) / 100) });
run.figure("runs", records);
run.note(`Versions: ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(", ")}.`);
run.note(`Load average (1, 5, 15 min) at start ${loadStart.map((x) => x.toFixed(1)).join(", ")}, at end ${loadEnd.map((x) => x.toFixed(1)).join(", ")} on ${cpus().length} cores, shared with other work: times are indicative only (ratios under ~1.5× are noise); token counts are exact.`);
run.note("Each run spawns each server afresh (the order rotates run by run); the peers are launched with their own flags for headless, isolated profile, no sandbox (root), the fixture origin as the only allowed origin, and (Chrome DevTools MCP) no usage statistics, no CrUX, no update checks. Commands: see `figures.commands` in the results file.");
if (failures.length) run.note(`Failed runs: ${failures.map((r) => `${r.server} run ${r.run}: ${r.error ?? "order not recorded"}`).join("; ")}.`);
const leftovers = records.reduce((n, r) => n + r.leftover_processes, 0);
if (leftovers + stragglers) run.note(`${leftovers + stragglers} process(es) outlived their server's close and were killed.`);
run.write();
