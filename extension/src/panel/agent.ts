// The panel's agent part: the connection pill, sharing this tab, the approval cards (Approve /
// Reject / Edit, keyboard shortcuts), Pause / Take over / Hand back, sites where act runs, and
// the activity log with its JSON Lines export. The background owns the state; this renders it.
import { browser } from "wxt/browser";
import { originOf, toJsonLines } from "@sightline/shared/agent/core";
import { AGENT_STATE_TAG, type AgentState, type AgentStateEnvelope, type PendingApproval } from "../agent/state.js";
import { ask } from "./bridge.js";
import { $, download, h } from "./dom.js";

let current: AgentState | null = null;
let tabId: (() => number | null) = () => null;
let tabUrl: (() => string) = () => "";
/** Cards whose text the person is editing (kept across re-renders). */
const editing = new Map<string, string>();

const CONN_TEXT: Record<string, string> = {
  off: "Agents: off",
  connecting: "Agents: connecting…",
  connected: "Agents: connected",
  reconnecting: "Agents: reconnecting…",
  lost: "Agents: connection lost",
};

async function send(req: Parameters<typeof ask>[0]): Promise<void> {
  const s = (await ask(req)) as AgentState;
  render(s);
}

function renderConnection(s: AgentState): void {
  const pill = $("#agent-conn");
  pill.className = `conn ${s.connection.status}`;
  pill.textContent = CONN_TEXT[s.connection.status] ?? s.connection.status;
  pill.title = s.connection.detail;
  pill.dataset.status = s.connection.status;
  $("#agent-conn-detail").textContent = `${CONN_TEXT[s.connection.status]}${s.connection.detail ? ` (${s.connection.detail})` : ""}`;
}

function renderSharing(s: AgentState): void {
  const id = tabId();
  const shared = id !== null && s.shared.includes(id);
  const toggle = $("#share-toggle") as HTMLInputElement;
  toggle.checked = shared;
  toggle.disabled = id === null;
  $("#share-note").textContent = shared
    ? s.attached.includes(id!)
      ? "Shared. The debugger is attached to this tab (Chrome shows a bar saying so): agents' clicks and typing count as yours."
      : "Shared. Agents can read this tab; their first action you approve attaches the browser's debugger to it, so clicks and typing count as yours."
    : "Not shared: agents cannot see or reach this tab.";
  $("#shared-count").textContent = s.shared.length ? `${s.shared.length} tab${s.shared.length > 1 ? "s" : ""} shared` : "";
}

function renderMode(s: AgentState): void {
  const m = $("#agent-mode");
  m.textContent = s.mode === "running" ? "The agent runs (asking you as set)." : s.mode === "paused" ? "Paused: the agent's next call waits." : "You have taken over: the agent waits until you hand back.";
  m.dataset.mode = s.mode;
  ($("#agent-pause") as HTMLButtonElement).hidden = s.mode !== "running";
  ($("#agent-takeover") as HTMLButtonElement).hidden = s.mode !== "running";
  ($("#agent-resume") as HTMLButtonElement).hidden = s.mode === "running";
  $("#agent-resume").textContent = s.mode === "takeover" ? "Hand back" : "Resume";
}

function renderSites(s: AgentState): void {
  const list = $("#allowed-sites");
  list.replaceChildren(
    ...s.allowedSites.map((o) =>
      h("li", {}, o, " ", h("button", { type: "button", class: "link", "data-origin": o }, "ask again")),
    ),
  );
  for (const b of list.querySelectorAll<HTMLButtonElement>("button[data-origin]")) {
    b.addEventListener("click", () => void send({ type: "agent-allow-site", origin: b.dataset.origin!, on: false }));
  }
  $("#allowed-empty").hidden = s.allowedSites.length > 0;
  const here = originOf(tabUrl());
  const allow = $("#allow-here") as HTMLInputElement;
  allow.checked = !!here && s.allowedSites.includes(here);
  allow.disabled = !here;
}

function card(a: PendingApproval, first: boolean): HTMLElement {
  const el = h("div", { class: `approval ${a.tier}`, "data-id": a.id, "data-tier": a.tier, role: "alertdialog", "aria-label": a.summary });
  el.append(h("div", { class: "approval-head" }, h("span", { class: `tier ${a.tier}` }, a.tier === "sensitive" ? "Sensitive" : "Asks"), ` tab ${a.tabId} · ${a.origin}`));
  el.append(h("p", { class: "approval-summary" }, a.summary));
  if (a.form?.fields.length) {
    const rows = a.form.fields.map((f) => h("tr", {}, h("th", {}, f.label), h("td", {}, f.secret ? "••••••••" : f.value)));
    el.append(h("details", { class: "approval-form", open: true }, h("summary", {}, `The form would send${a.form.name ? ` (${a.form.name})` : ""}`), h("table", {}, ...rows)));
  }
  if (a.action.kind === "type") {
    const input = h("input", { class: "approval-text", type: a.secret ? "password" : "text", "aria-label": "Text to type", hidden: !editing.has(a.id) });
    input.value = editing.get(a.id) ?? (a.secret ? "" : a.action.text);
    input.addEventListener("input", () => editing.set(a.id, input.value));
    el.append(input);
  }
  if (a.attachesDebugger) el.append(h("p", { class: "muted small" }, "Approving also attaches the browser's debugger to this tab (Chrome shows a bar): that is how the agent's input counts as yours."));
  const approve = h("button", { type: "button", class: "primary approve" }, editing.has(a.id) ? "Approve edited" : "Approve");
  const reject = h("button", { type: "button", class: "reject" }, "Reject");
  const buttons = h("div", { class: "row" }, approve, reject);
  if (a.action.kind === "type") {
    const edit = h("button", { type: "button", class: "edit" }, "Edit");
    edit.addEventListener("click", () => startEdit(a));
    buttons.append(edit);
  }
  if (a.tier === "act") {
    const allow = h("button", { type: "button", class: "allow-site", title: "Approve, and let act-tier actions run without asking on this site until the browser closes (sensitive ones still ask)" }, "Approve, and allow on this site");
    allow.addEventListener("click", () => void (async () => {
      await send({ type: "agent-allow-site", origin: a.origin, on: true });
      await decide(a, true);
    })());
    buttons.append(allow);
  }
  approve.addEventListener("click", () => void decide(a, true));
  reject.addEventListener("click", () => void decide(a, false));
  el.append(buttons);
  if (first) el.append(h("p", { class: "muted small keys" }, "Keys: A approve · R reject · E edit"));
  return el;
}

function startEdit(a: PendingApproval): void {
  if (a.action.kind !== "type") return;
  if (!editing.has(a.id)) editing.set(a.id, a.secret ? "" : a.action.text);
  if (current) render(current);
  const input = document.querySelector<HTMLInputElement>(`.approval[data-id="${a.id}"] .approval-text`);
  input?.focus();
  input?.select();
}

async function decide(a: PendingApproval, approve: boolean): Promise<void> {
  const text = editing.get(a.id);
  editing.delete(a.id);
  await send({ type: "agent-decide", id: a.id, approve, ...(approve && text !== undefined ? { text } : {}) });
}

function renderApprovals(s: AgentState): void {
  const box = $("#approvals");
  for (const id of editing.keys()) if (!s.pending.some((p) => p.id === id)) editing.delete(id);
  // Keep the card the person is typing in: re-rendering it would steal the focus.
  const active = document.activeElement;
  if (active instanceof HTMLInputElement && active.classList.contains("approval-text") && s.pending.some((p) => p.id === active.closest<HTMLElement>(".approval")?.dataset.id)) return;
  box.replaceChildren(...s.pending.map((a, i) => card(a, i === 0)));
  box.hidden = s.pending.length === 0;
}

function renderLog(s: AgentState): void {
  const list = $("#activity-log");
  const rows = s.log.slice(-50).reverse().map((e) => {
    const d = e.decision;
    const tier = d?.tier ?? "observe";
    const how = !d || (d.by === "policy" && d.verdict === "approved") ? "ran" : `${d.verdict} by ${d.by === "person" ? "you" : "Sightline"}`;
    return h(
      "li",
      { class: `log ${tier} ${e.error ? "failed" : ""}`, "data-tool": e.tool, "data-decision": d?.verdict ?? "", "data-by": d?.by ?? "" },
      h("span", { class: "log-time muted" }, new Date(e.at).toLocaleTimeString()),
      " ",
      h("span", { class: `tier ${tier}` }, tier),
      " ",
      e.summary,
      h("span", { class: "muted" }, ` · ${how}${e.outcome && e.outcome !== "error" ? ` · ${e.outcome}` : ""}${e.error ? ` · ${e.error}` : ""}`),
    );
  });
  list.replaceChildren(...rows);
  $("#log-empty").hidden = s.log.length > 0;
  ($("#export-log") as HTMLButtonElement).disabled = s.log.length === 0;
}

export function render(s: AgentState): void {
  current = s;
  renderConnection(s);
  renderSharing(s);
  renderMode(s);
  renderSites(s);
  renderApprovals(s);
  renderLog(s);
}

/** The log as sightline-activity/1 JSON Lines (`sightline replay` takes it); secrets are masked. */
export function logJsonl(s: AgentState): string {
  return toJsonLines(s.log);
}

export function refreshAgent(): void {
  void ask({ type: "agent-state" }).then((s) => render(s as AgentState), () => undefined);
}

export function startAgentPanel(opts: { tabId(): number | null; tabUrl(): string }): void {
  tabId = opts.tabId;
  tabUrl = opts.tabUrl;
  browser.runtime.onMessage.addListener((msg: unknown, sender) => {
    const env = msg as Partial<AgentStateEnvelope> | null;
    if (sender.id !== browser.runtime.id || env?.tag !== AGENT_STATE_TAG || !env.state) return;
    render(env.state);
  });
  $("#share-toggle").addEventListener("change", (e) => {
    const id = tabId();
    if (id === null) return;
    void send({ type: "agent-share", tabId: id, on: (e.target as HTMLInputElement).checked });
  });
  $("#allow-here").addEventListener("change", (e) => {
    const o = originOf(tabUrl());
    if (o) void send({ type: "agent-allow-site", origin: o, on: (e.target as HTMLInputElement).checked });
  });
  $("#agent-pause").addEventListener("click", () => void send({ type: "agent-mode", mode: "paused" }));
  $("#agent-takeover").addEventListener("click", () => void send({ type: "agent-mode", mode: "takeover" }));
  $("#agent-resume").addEventListener("click", () => void send({ type: "agent-mode", mode: "running" }));
  $("#agent-reconnect").addEventListener("click", () => void send({ type: "agent-reconnect" }));
  $("#export-log").addEventListener("click", () => {
    if (current) download(`sightline-activity-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`, logJsonl(current), "application/x-ndjson");
  });
  // Keyboard: A approve, R reject, E edit the first card (not while typing in a field).
  document.addEventListener("keydown", (e) => {
    const first = current?.pending[0];
    if (!first || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement;
    if (typing) {
      if (e.key === "Enter" && t.classList.contains("approval-text")) {
        e.preventDefault();
        const id = t.closest<HTMLElement>(".approval")?.dataset.id;
        const a = current?.pending.find((p) => p.id === id);
        if (a) void decide(a, true);
      }
      return;
    }
    const k = e.key.toLowerCase();
    if (k === "a") void decide(first, true);
    else if (k === "r") void decide(first, false);
    else if (k === "e") {
      e.preventDefault();
      startEdit(first);
    } else return;
    e.preventDefault();
  });
  refreshAgent();
}
