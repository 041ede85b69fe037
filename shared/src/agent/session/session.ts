// An agent's working memory of its tabs: the ids it has seen, the picture it last had of each
// page, and the diff an action made. Every tool goes through here, so ids, stale answers and
// diffs are the same on every backend.
import type { RefineResult, RefinedElement, SnapshotRequest } from "../../contract/index.js";
import { diff, formatElement, toPrompt, DEFAULT_TOKEN_BUDGET } from "../../prompt/index.js";
import type { ActionResult, ActionTarget, AgentAction, AgentTab } from "../core/actions.js";
import { AgentError } from "../core/errors.js";
import type { AgentBackend, CallHooks, CaptureOptions, ReadPage } from "./backend.js";
import { closestElement } from "./stale.js";
import { ACTIVITY_FORMAT, loggableAction, type ActivityEntry } from "../core/activity.js";
import { followsHiddenText, hiddenIdsOf, hiddenPassagesIn, HIDDEN_NOTICE } from "./provenance.js";
import { isSecretTarget, SecretValues } from "../core/secrets.js";

export type Billable = "snapshot" | "read" | "screenshot";

export interface SessionDeps {
  backend: AgentBackend;
  /**
   * The refinement engine. `purpose` is the priced call a refinement is for ("snapshot": the
   * agent's own snapshot; "screenshot": the marks of its screenshot; what an API-backed session
   * sends to /v1/snapshot and pays for, ../tools/prices.ts) or "internal": the pictures behind
   * diffs and stale hints (always free).
   */
  refine(req: SnapshotRequest, opts: { goal?: string; limit?: number }, purpose: "snapshot" | "screenshot" | "internal"): Promise<RefineResult>;
  /**
   * Wraps a call that costs what its REST twin costs: charges before `run`, refunds when it
   * throws. Absent: free (local use).
   */
  bill?<T>(what: Billable, run: () => Promise<T>): Promise<T>;
  /** Receives one entry per action (the activity log); secrets are already masked. */
  onActivity?(entry: ActivityEntry): void;
}

export interface SnapshotOptions {
  goal?: string;
  limit?: number;
  token_budget?: number;
}

export interface SnapshotAnswer {
  tab: string;
  url: string;
  text: string;
  tokens: number;
  elements: CompactElement[];
}

/** The structured element an agent gets: what it needs to pick one, nothing more. */
export interface CompactElement {
  id: number;
  role: string;
  name: string;
  value?: string;
  checked?: boolean;
  disabled?: boolean;
  href?: string;
  in_viewport: boolean;
  /** The person cannot see its text: "all" of it, or a "part" (decided in the page, from layout). */
  text_hidden?: "all" | "part";
}

export interface ActAnswer extends ActionResult {
  /** A few lines: "+ [12] button ..." added, "- [5] ..." removed, "~ [7] ..." modified. */
  changes: string[];
  /** The page's title and first lines after a navigation. */
  page?: string;
}

/** Diff lines an action answer carries at most. */
export const MAX_CHANGE_LINES = 8;

interface TabMemory {
  url: string;
  /** Every element seen in this document, by id: ids stay valid until they go stale. */
  known: Map<number, RefinedElement>;
  /** The goal-free picture used for diffs. */
  baseline: RefinedElement[];
  /** Passages the person cannot see, from the last snapshot or read. */
  hidden: string[];
  /** Elements of the last snapshot whose text the person cannot see at all. */
  hiddenIds: Set<number>;
  /** The baseline is a navigation's summary, not the whole page: the next action captures it first. */
  partial: boolean;
}

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
const nameOf = (el: RefinedElement) => clean(el.name) || clean(el.text);

export function compact(el: RefinedElement): CompactElement {
  const out: CompactElement = { id: el.id, role: el.role, name: nameOf(el).slice(0, 120), in_viewport: el.in_viewport };
  if (el.value) out.value = el.value;
  if (el.checked != null) out.checked = el.checked;
  if (el.disabled) out.disabled = true;
  if (el.href) out.href = el.href;
  return out;
}

export class AgentSession {
  private readonly memory = new Map<string, TabMemory>();
  /**
   * What the agent typed into secret fields (secrets.ts), in memory only: masked in whatever
   * the page gives back later (captures, Markdown, tabs, results, errors), wherever it echoes them.
   */
  private readonly secrets = new SecretValues();

  constructor(private readonly deps: SessionDeps) {}

  private bill<T>(what: Billable, run: () => Promise<T>): Promise<T> {
    return this.deps.bill ? this.deps.bill(what, run) : run();
  }

  /** The tab a call means: the one given, else the only or active tab. */
  async resolveTab(tab?: string): Promise<string> {
    const tabs = await this.deps.backend.tabs();
    if (tab !== undefined) {
      if (!tabs.some((t) => t.tab === tab)) throw new AgentError("no_tab", `no tab "${tab}" is shared with the agent; call tabs to list them`);
      return tab;
    }
    const chosen = tabs.find((t) => t.active) ?? tabs[0];
    if (!chosen) throw new AgentError("no_tab", "no tab is shared with the agent");
    return chosen.tab;
  }

  async tabs(): Promise<AgentTab[]> {
    return this.secrets.scrub(await this.deps.backend.tabs());
  }

  /** The page as the collector sees it, typed secrets masked before anything is built from it. */
  private async capture(tab: string, opts?: CaptureOptions): Promise<SnapshotRequest> {
    return this.secrets.scrub(await this.deps.backend.capture(tab, opts));
  }

  private remember(tab: string, url: string, elements: RefinedElement[], baseline: RefinedElement[] | null): void {
    let m = this.memory.get(tab);
    if (!m || m.url !== url) {
      m = { url, known: new Map(), baseline: [], hidden: [], hiddenIds: new Set(), partial: false };
      this.memory.set(tab, m);
    }
    for (const el of elements) m.known.set(el.id, el);
    if (baseline) {
      for (const el of baseline) m.known.set(el.id, el);
      m.baseline = baseline;
      m.partial = false;
    }
  }

  async snapshot(tabArg: string | undefined, opts: SnapshotOptions = {}): Promise<SnapshotAnswer> {
    const tab = await this.resolveTab(tabArg);
    return this.bill("snapshot", async () => {
      // One round trip's wait for both: the page runs them one after the other anyway.
      const [req, hidden] = await Promise.all([this.capture(tab, { textVisibility: true }), this.hiddenOf(tab)]);
      const [ranked, baseline] = await Promise.all([
        this.deps.refine(req, { goal: opts.goal, limit: opts.limit }, "snapshot"),
        opts.goal || opts.limit !== undefined ? this.deps.refine(req, {}, "internal") : null,
      ]);
      this.remember(tab, req.url, ranked.elements, baseline?.elements ?? ranked.elements);
      const prompt = toPrompt({ ...ranked, url: req.url }, {
        tokenBudget: opts.token_budget ?? DEFAULT_TOKEN_BUDGET,
        maxElements: opts.limit,
      });
      const shown = new Set(prompt.included);
      const m = this.memory.get(tab)!;
      // Which elements the person cannot see is the page's verdict, per element, from layout.
      const marks = hiddenIdsOf(req.raw_elements);
      m.hidden = hidden;
      m.hiddenIds = marks.hidden;
      let text = prompt.text;
      if (prompt.included.some((id) => marks.hidden.has(id) || marks.partly.has(id))) {
        text = text
          .split("\n")
          .map((line) => {
            const id = /^\[(\d+)\]/.exec(line);
            if (!id) return line;
            const n = Number(id[1]);
            return marks.hidden.has(n) ? `${line} hidden` : marks.partly.has(n) ? `${line} partly hidden` : line;
          })
          .join("\n");
        text += `\n${HIDDEN_NOTICE}`;
      }
      const flagged = (el: RefinedElement): CompactElement => {
        const c = compact(el);
        if (marks.hidden.has(el.id)) c.text_hidden = "all";
        else if (marks.partly.has(el.id)) c.text_hidden = "part";
        return c;
      };
      return {
        tab,
        url: req.url,
        text,
        tokens: prompt.tokens,
        elements: ranked.elements.filter((el) => shown.has(el.id)).map(flagged),
      };
    });
  }

  /** Passages the person cannot see, when the backend can tell (else none). */
  private async hiddenOf(tab: string): Promise<string[]> {
    if (!this.deps.backend.hiddenText) return [];
    return this.deps.backend.hiddenText(tab).then((texts) => this.secrets.scrub(texts), () => []);
  }

  async read(tabArg: string | undefined): Promise<ReadPage & { hidden_marked: number }> {
    const tab = await this.resolveTab(tabArg);
    return this.bill("read", async () => {
      const [page, hidden] = await Promise.all([this.deps.backend.read(tab).then((p) => this.secrets.scrub(p)), this.hiddenOf(tab)]);
      // The backend's read marks every run the person cannot see (the collector's markHidden).
      const marked = [page.title, page.description, page.content].flatMap(hiddenPassagesIn);
      // Remembered for the activity log even before a snapshot (a navigate needs none).
      this.remember(tab, page.url, [], null);
      const m = this.memory.get(tab)!;
      m.hidden = [...new Set([...hidden, ...marked])];
      const inContent = hiddenPassagesIn(page.content).length;
      return { ...page, content: marked.length ? `${HIDDEN_NOTICE}\n\n${page.content}` : page.content, hidden_marked: inContent };
    });
  }

  async screenshot(tabArg: string | undefined): Promise<{ tab: string; png: string; marks: number }> {
    const tab = await this.resolveTab(tabArg);
    return this.bill("screenshot", async () => {
      // Marks are the elements of the tab's last picture that are in the viewport now.
      const req = await this.capture(tab);
      const fresh = await this.deps.refine(req, {}, "screenshot");
      this.remember(tab, req.url, [], fresh.elements);
      const marks = fresh.elements
        .filter((el) => el.in_viewport && el.bbox.width > 0 && el.bbox.height > 0)
        .map((el) => ({ id: el.id, x: el.bbox.x, y: el.bbox.y, width: el.bbox.width, height: el.bbox.height }));
      const png = await this.deps.backend.screenshot(tab, marks);
      return { tab, png, marks: marks.length };
    });
  }

  /** The element an id names, if the agent has seen it in this document. */
  private known(tab: string, id: number): RefinedElement {
    const m = this.memory.get(tab);
    if (!m || m.known.size === 0) throw new AgentError("no_snapshot", `take a snapshot of the tab before using element ids`);
    const el = m.known.get(id);
    if (!el) throw new AgentError("unknown_id", `element [${id}] is not in the last snapshot of this page; take a new snapshot`, { id });
    return el;
  }

  async act(tabArg: string | undefined, action: AgentAction, hooks: CallHooks = {}): Promise<ActAnswer> {
    const tab = await this.resolveTab(tabArg);
    const id = "id" in action ? action.id : undefined;
    const el = id !== undefined ? this.known(tab, id) : null;
    const target: ActionTarget | null = el ? { id: el.id, role: el.role, name: nameOf(el), input_type: el.input_type, ...(el.value_redacted ? { secret: true } : {}) } : null;
    if (action.kind === "type" && isSecretTarget(target)) this.secrets.add(action.text);
    if (this.memory.get(tab)?.partial) {
      // The page as a whole, for this action's diff: a navigation's answer captured only its top.
      const req = await this.capture(tab);
      this.remember(tab, req.url, [], (await this.deps.refine(req, {}, "internal")).elements);
    }
    const mem = this.memory.get(tab);
    const entry: ActivityEntry = {
      format: ACTIVITY_FORMAT,
      at: new Date().toISOString(),
      tab,
      tool: action.kind,
      url: mem?.url ?? "",
      action: this.secrets.scrub(loggableAction(action, target)),
      ...(target ? { target } : {}),
      follows_hidden_text: mem ? followsHiddenText(action, mem.hidden, mem.hiddenIds) : false,
    };
    let result: ActionResult;
    try {
      result = this.secrets.scrub(await this.deps.backend.act(tab, action, target, hooks));
    } catch (raw) {
      const err = this.secrets.scrubError(raw);
      const thrown =
        err instanceof AgentError && err.code === "stale" && el
          ? await this.staleError(tab, el)
          : err instanceof AgentError && err.code === "handed_back"
            ? await this.handedBackError(tab, err)
            : err;
      this.deps.onActivity?.({ ...entry, outcome: "error", error: thrown instanceof Error ? thrown.message : String(thrown) });
      throw thrown;
    }
    const answer = await this.answer(tab, result);
    this.deps.onActivity?.({
      ...entry,
      ...(result.decision ? { decision: result.decision } : {}),
      outcome: answer.outcome,
      url_after: answer.url,
      changes: answer.changes,
    });
    return answer;
  }

  /** A stale id is not guessed at: the error names the closest current element instead. */
  private async staleError(tab: string, gone: RefinedElement): Promise<AgentError> {
    const req = await this.capture(tab);
    const fresh = await this.deps.refine(req, {}, "internal");
    this.remember(tab, req.url, [], fresh.elements);
    const m = this.memory.get(tab);
    m?.known.delete(gone.id);
    const near = closestElement(gone, fresh.elements);
    const hint = near ? `; the closest current element is ${formatElement(near)}` : "; take a new snapshot";
    return new AgentError("stale", `element [${gone.id}] ${gone.role} "${nameOf(gone)}" is no longer on the page${hint}`, {
      id: gone.id,
      closest: near ? compact(near) : null,
    });
  }

  /**
   * The person took the tab over and handed it back: the agent's picture is old. It gets what
   * the person changed and the page as it is now, so it re-plans on fresh ids.
   */
  private async handedBackError(tab: string, err: AgentError): Promise<AgentError> {
    const previous = this.memory.get(tab);
    const req = await this.capture(tab);
    const fresh = await this.deps.refine(req, {}, "internal");
    const changes = previous && previous.url === req.url ? this.changeLines(previous.baseline, fresh.elements) : [`navigated to ${req.url}`];
    this.memory.delete(tab);
    this.remember(tab, req.url, [], fresh.elements);
    const page = toPrompt({ ...fresh, url: req.url }, { tokenBudget: DEFAULT_TOKEN_BUDGET });
    const text = [`${err.message}; nothing was done. What the person changed:`, ...(changes.length ? changes : ["(nothing)"]), "The page now:", page.text].join("\n");
    return new AgentError("handed_back", text, { ...(err.detail ?? {}), changes, url: req.url });
  }

  /** "+ [12] …" added, "- [5] …" removed, "~ [7] …" modified: at most MAX_CHANGE_LINES. */
  private changeLines(before: RefinedElement[], after: RefinedElement[]): string[] {
    const d = diff({ elements: before }, { elements: after });
    const lines: string[] = [];
    let more = 0;
    for (const e of d.elements) {
      const mark = e.diff_status === "ADDED" ? "+" : e.diff_status === "REMOVED" ? "-" : e.diff_status === "MODIFIED" ? "~" : null;
      if (!mark) continue;
      if (lines.length < MAX_CHANGE_LINES) lines.push(`${mark} ${formatElement(e)}`);
      else more++;
    }
    if (more) lines.push(`(${more} more changes; snapshot for the full page)`);
    return lines;
  }

  /** After an action: the outcome plus what changed, from a fresh (free) capture. */
  private async answer(tab: string, result: ActionResult): Promise<ActAnswer> {
    const previous = this.memory.get(tab);
    const navigated = result.outcome === "navigated";
    let req: SnapshotRequest;
    try {
      // After a navigation the answer lists the new page's first elements: its top is captured,
      // not the whole page (most of a second on a page of thousands of controls).
      req = await this.capture(tab, navigated ? { summary: true } : undefined);
    } catch {
      // The page is between documents: the outcome stands, the diff waits for a snapshot.
      return { ...result, changes: [] };
    }
    const fresh = await this.deps.refine(req, {}, "internal");
    if (navigated || !previous || previous.url !== req.url) {
      this.memory.delete(tab);
      this.remember(tab, req.url, [], fresh.elements);
      this.memory.get(tab)!.partial = navigated;
      const top = toPrompt({ ...fresh, url: req.url }, { tokenBudget: 200, maxElements: 5 });
      // A summary's count of the elements left out is not the page's: say what to do instead.
      const text = navigated ? top.text.replace(/\n\(\d+ more elements omitted\)$/, "\n(the rest of the page: snapshot)") : top.text;
      return { ...result, outcome: "navigated", changes: [], page: text };
    }
    const lines = this.changeLines(previous.baseline, fresh.elements);
    this.remember(tab, req.url, [], fresh.elements);
    return { ...result, changes: lines };
  }

  async wait(tabArg: string | undefined, opts: { text?: string; timeoutMs?: number }): Promise<{ found: boolean; url: string }> {
    const tab = await this.resolveTab(tabArg);
    const found = await this.deps.backend.wait(tab, { text: opts.text, timeoutMs: Math.min(opts.timeoutMs ?? 5000, 60_000) });
    const tabs = await this.tabs();
    return { found, url: tabs.find((t) => t.tab === tab)?.url ?? "" };
  }
}
