// An agent's working memory of its tabs: the ids it has seen, the picture it last had of each
// page, and the diff an action made. Every tool goes through here, so ids, stale answers and
// diffs are the same on every backend.
import type { RefineResult, RefinedElement, SnapshotRequest } from "../../contract/index.js";
import { diff } from "../../prompt/diff.js";
import { formatElement } from "../../prompt/format.js";

export { compact, type CompactElement };
import type { ActionResult, ActionTarget, AgentAction, AgentTab, DialogInfo } from "../core/actions.js";
import { AgentError, isAgentError } from "../core/errors.js";
import type { ActOutcome, AgentBackend, CallHooks, CaptureOptions, ReadPage } from "./backend.js";
import { compact, nameOf, type CompactElement } from "./elements.js";
import { isStale, staleAnswer } from "./stale.js";
import { activityEntry, type ActivityEntry, type ActivityInput } from "../core/activity.js";
import { followsHiddenText, hiddenIdsOf, hiddenPassagesIn, HIDDEN_NOTICE } from "./provenance.js";
import { isSecretTarget, SecretValues } from "../core/secrets.js";

// The one lazy boundary of the agent's startup: rendering a page for the agent counts tokens with
// gpt-tokenizer's o200k tables, the costliest module to load (~300 ms of CPU). Loaded on the first
// answer that renders a page (or warmed in the background by the stdio server), so a server that
// composes a session answers `initialize` without it.
let promptModule: Promise<typeof import("../../prompt/to-prompt.js")> | undefined;
/** The prompt renderer, loaded once. */
export const loadPrompt = (): Promise<typeof import("../../prompt/to-prompt.js")> => (promptModule ??= import("../../prompt/to-prompt.js"));

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
  /**
   * Receives one entry per action (the activity log, built by core/activity.ts); secrets are
   * already masked. Absent where the log is kept elsewhere (the extension's, for /mcp).
   */
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

const fold = (s: string) => s.normalize("NFKC").replace(/\s+/g, " ").trim().toLowerCase();

/** What an element says of itself (not its neighbours' nearby_text or context_text). */
const FIND_ATTRIBUTES = ["accessible_name", "aria_label", "alt", "title", "placeholder", "value", "name", "inferred_name", "href"] as const;

/** Raw elements (frames' content included) whose text or attribute values hold `text`. */
function matchingElements(raw: SnapshotRequest["raw_elements"], text: string): { kept: SnapshotRequest["raw_elements"]; matches: number } {
  const want = fold(text);
  let matches = 0;
  const walk = (els: SnapshotRequest["raw_elements"]): SnapshotRequest["raw_elements"] => {
    const out: SnapshotRequest["raw_elements"] = [];
    for (const el of els) {
      const inner = el.iframe_content?.length ? walk(el.iframe_content) : [];
      const a = el.attributes ?? {};
      const own = [el.text, ...FIND_ATTRIBUTES.map((k) => a[k])].some((v) => typeof v === "string" && fold(v).includes(want));
      if (own) matches++;
      if (own || inner.length) out.push(inner.length || el.iframe_content ? { ...el, iframe_content: inner } : el);
    }
    return out;
  };
  return { kept: walk(raw), matches };
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
      const { toPrompt, DEFAULT_TOKEN_BUDGET } = await loadPrompt();
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

  /**
   * The elements whose text, name or value holds `text`, wherever they are on the page (issue
   * 33): the capture is cut down to the matching elements before it is refined, so on a page of
   * thousands of controls the one the agent wants is not lost below a snapshot's limit. Their
   * ids are remembered like a snapshot's. Priced like a snapshot (it is one, of fewer elements).
   */
  async find(tabArg: string | undefined, text: string, limit = 10): Promise<SnapshotAnswer & { matches: number }> {
    const tab = await this.resolveTab(tabArg);
    return this.bill("snapshot", async () => {
      const req = await this.capture(tab);
      const { kept, matches } = matchingElements(req.raw_elements, text);
      const ranked = kept.length ? await this.deps.refine({ ...req, raw_elements: kept }, { goal: text, limit }, "snapshot") : { elements: [] as RefinedElement[] };
      this.remember(tab, req.url, ranked.elements, null);
      const lines = ranked.elements.map((el) => formatElement(el));
      const head = matches ? `${matches} ${matches === 1 ? "element matches" : "elements match"} ${JSON.stringify(text)}${matches > ranked.elements.length ? `; the best ${ranked.elements.length}:` : ":"}` : `nothing on the page matches ${JSON.stringify(text)}`;
      const out = [head, ...lines].join("\n");
      return { tab, url: req.url, text: out, tokens: 0, matches, elements: ranked.elements.map(compact) };
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
      const req = await this.capture(tab, { internal: true });
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

  /**
   * The ids an action names besides its own `id` must be known too (a drag's drop target, every
   * field of a fill_form); a fill_form's fields carry what the agent saw of them (label, role,
   * secret) for the person's card and the log.
   */
  private withKnownFields(tab: string, action: AgentAction): AgentAction {
    if (action.kind === "drag" && action.to !== undefined) this.known(tab, action.to);
    if (action.kind !== "fill_form") return action;
    const fields = action.fields.map((f) => {
      const el = this.known(tab, f.id);
      const seen = { id: el.id, role: el.role, name: nameOf(el), input_type: el.input_type, ...(el.value_redacted ? { secret: true } : {}) };
      const secret = isSecretTarget(seen);
      if (secret) this.secrets.add(f.value);
      return { id: f.id, value: f.value, label: seen.name.slice(0, 80), role: el.role, ...(secret ? { secret: true } : {}) };
    });
    return { ...action, fields };
  }

  async act(tabArg: string | undefined, asked: AgentAction, hooks: CallHooks = {}): Promise<ActAnswer> {
    const tab = await this.resolveTab(tabArg);
    const at = new Date();
    const action = this.withKnownFields(tab, asked);
    const id = "id" in action ? action.id : undefined;
    const el = id !== undefined ? this.known(tab, id) : null;
    const target: ActionTarget | null = el ? { id: el.id, role: el.role, name: nameOf(el), input_type: el.input_type, ...(el.value_redacted ? { secret: true } : {}) } : null;
    if (action.kind === "type" && isSecretTarget(target)) this.secrets.add(action.text);
    if (this.memory.get(tab)?.partial) {
      // The page as a whole, for this action's diff: a navigation's answer captured only its top.
      // Internal: the agent did not ask for it (the person's log shows no snapshot for it).
      const req = await this.capture(tab, { internal: true });
      this.remember(tab, req.url, [], (await this.deps.refine(req, {}, "internal")).elements);
    }
    const mem = this.memory.get(tab);
    const followsHidden = mem ? followsHiddenText(action, mem.hidden, mem.hiddenIds) : false;
    const log = (rest: Partial<ActivityInput>) =>
      this.deps.onActivity?.(this.secrets.scrub(activityEntry({ at, tab, tool: action.kind, url: mem?.url ?? "", action, target, followsHiddenText: followsHidden, ...rest })));
    let result: ActOutcome;
    try {
      // The page after the action comes with its answer where the backend can (one bridge round trip).
      result = this.secrets.scrub(await this.deps.backend.act(tab, action, target, hooks, { capture: true, summary: true, followsHiddenText: followsHidden }));
    } catch (raw) {
      const err = this.secrets.scrubError(raw);
      const thrown =
        isStale(err) && el ? await this.staleError(tab, el) : err instanceof AgentError && err.code === "handed_back" ? await this.handedBackError(tab, err) : err;
      log({ error: thrown instanceof Error ? thrown.message : String(thrown) });
      throw thrown;
    }
    const answer = await this.answer(tab, result);
    log({ decision: result.decision, outcome: answer.outcome, urlAfter: answer.url, changes: answer.changes });
    return answer;
  }

  /** A stale id is not guessed at: the error names the closest current element instead (stale.ts). */
  private async staleError(tab: string, gone: RefinedElement): Promise<AgentError> {
    const req = await this.capture(tab, { internal: true });
    const fresh = await this.deps.refine(req, {}, "internal");
    this.remember(tab, req.url, [], fresh.elements);
    this.memory.get(tab)?.known.delete(gone.id);
    return staleAnswer(gone, fresh.elements);
  }

  /**
   * The person took the tab over and handed it back: the agent's picture is old. It gets what
   * the person changed and the page as it is now, so it re-plans on fresh ids.
   */
  private async handedBackError(tab: string, err: AgentError): Promise<AgentError> {
    const previous = this.memory.get(tab);
    const req = await this.capture(tab, { internal: true });
    const fresh = await this.deps.refine(req, {}, "internal");
    const changes = previous && previous.url === req.url ? this.changeLines(previous.baseline, fresh.elements) : [`navigated to ${req.url}`];
    this.memory.delete(tab);
    this.remember(tab, req.url, [], fresh.elements);
    const { toPrompt, DEFAULT_TOKEN_BUDGET } = await loadPrompt();
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

  /**
   * After an action: the outcome plus what changed, from a fresh (free) capture: the one the
   * action's answer carried, else (a backend that cannot, an older extension) one taken now.
   */
  private async answer(tab: string, got: ActOutcome): Promise<ActAnswer> {
    const { capture, captureSummary, ...result } = got;
    // A dialog blocks the page: nothing can be read of it until the agent answers (dialog tool).
    if (result.dialog) return { ...result, changes: [] };
    const previous = this.memory.get(tab);
    const navigated = result.outcome === "navigated";
    let req: SnapshotRequest;
    try {
      if (capture === null) throw new Error("no capture after the action");
      // After a navigation the answer lists the new page's first elements: its top is captured,
      // not the whole page (most of a second on a page of thousands of controls), unless the
      // action's answer carried the page already.
      req = capture ?? (await this.capture(tab, navigated ? { summary: true, internal: true } : { internal: true }));
    } catch (err) {
      // A dialog the page opened just after the action (a timer, a load handler).
      if (isAgentError(err) && err.code === "dialog_open" && err.detail?.dialog) {
        return { ...result, outcome: "dialog", dialog: err.detail.dialog as DialogInfo, changes: [] };
      }
      // The page is between documents: the outcome stands, the diff waits for a snapshot.
      return { ...result, changes: [] };
    }
    const fresh = await this.deps.refine(req, {}, "internal");
    if (navigated || !previous || previous.url !== req.url) {
      this.memory.delete(tab);
      this.remember(tab, req.url, [], fresh.elements);
      this.memory.get(tab)!.partial = navigated && (!capture || captureSummary === true);
      const { toPrompt } = await loadPrompt();
      const top = toPrompt({ ...fresh, url: req.url }, { tokenBudget: 200, maxElements: 5 });
      // A summary's count of the elements left out is not the page's: say what to do instead.
      const text = navigated ? top.text.replace(/\n\(\d+ more elements omitted\)$/, "\n(the rest of the page: snapshot)") : top.text;
      return { ...result, outcome: "navigated", changes: [], page: text };
    }
    const lines = this.changeLines(previous.baseline, fresh.elements);
    this.remember(tab, req.url, [], fresh.elements);
    return { ...result, changes: lines };
  }

  /** Opens a URL in a new tab, which becomes the agent's active tab (issue 33). */
  async openTab(url: string): Promise<AgentTab> {
    if (!this.deps.backend.openTab) throw new AgentError("not_actionable", "this backend cannot open tabs; a link the page opens in a new tab joins the agent's tabs");
    return this.secrets.scrub(await this.deps.backend.openTab(url));
  }

  async selectTab(tab: string): Promise<AgentTab[]> {
    await this.resolveTab(tab);
    if (!this.deps.backend.selectTab) throw new AgentError("not_actionable", "this backend cannot switch tabs; pass tab to each call instead");
    await this.deps.backend.selectTab(tab);
    return this.tabs();
  }

  async closeTab(tab: string): Promise<AgentTab[]> {
    await this.resolveTab(tab);
    if (!this.deps.backend.closeTab) throw new AgentError("not_actionable", "this backend cannot close tabs");
    await this.deps.backend.closeTab(tab);
    this.memory.delete(tab);
    return this.tabs();
  }

  async wait(tabArg: string | undefined, opts: { text?: string; timeoutMs?: number }): Promise<{ found: boolean; url: string }> {
    const tab = await this.resolveTab(tabArg);
    const found = await this.deps.backend.wait(tab, { text: opts.text, timeoutMs: Math.min(opts.timeoutMs ?? 5000, 60_000) });
    const tabs = await this.tabs();
    return { found, url: tabs.find((t) => t.tab === tab)?.url ?? "" };
  }
}
