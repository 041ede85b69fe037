// The functions the page agent (shared/src/agent/page/, injected into the page next to the
// collector, in the same world) offers to the code that acts on a page. Declared here, in
// isomorphic code, so drivers and the action flow are typed without importing DOM code.

export interface LocateArgs {
  /** The collector's id of the element. */
  id: number;
}

export interface TargetPoint {
  /** The element with this id is in the document (false: stale). */
  found: boolean;
  /** Viewport point of its centre, after scrolling it into view (top-level coordinates). */
  x: number;
  y: number;
  /** What is at that point is the element itself, inside it, or its label. */
  hits: boolean;
  /** Lower-case tag name, input type and whether it takes text. */
  tag: string;
  inputType: string | null;
  editable: boolean;
}

export interface SelectResult {
  ok: boolean;
  /** The option texts/values, when nothing matched. */
  options: string[];
  chosen: string | null;
}

/** What the page says about an action's target, for its risk tier and the approval card. */
export interface TargetFacts {
  tag: string;
  inputType: string | null;
  /** The autocomplete attribute, lower-cased ("one-time-code", "cc-number"...). */
  autocomplete: string;
  /** A secret field (shared/src/agent/core/secrets.ts): password, one-time code, PIN, card... */
  secret: boolean;
  /** Activating it submits a form (a submit button, or Enter in a form's field). */
  submits: boolean;
  /** A link that downloads (download attribute). */
  download: boolean;
  /** A link's absolute target. */
  href: string | null;
  /** Its form: how it is named and the values a submit would send (secret values masked). */
  form: FormFacts | null;
}

export interface FormFacts {
  /** aria-label, name or id of the form, else the last segment of its action ("checkout"). */
  name: string;
  action: string;
  /** The label of its (first) submit button. */
  submitLabel: string;
  fields: { label: string; value: string; secret: boolean }[];
}

export interface PageCalls {
  /** Finds element `id`, scrolls it to the middle of the viewport if needed, hit-tests it. */
  locate(args: LocateArgs): TargetPoint;
  /** Clicks the located element through the DOM (when the mouse would hit something else). */
  domClick(args: Record<string, never>): boolean;
  /** Focuses the located element; `select` selects its content so typing replaces it. */
  focus(args: { select: boolean }): boolean;
  /** Chooses the option of the located <select> whose value or text matches. */
  selectOption(args: { value: string }): SelectResult;
  /** Scrolls the page (or the located element's scroller) by most of a viewport. */
  scrollBy(args: { direction: "up" | "down" | "left" | "right" }): { moved: boolean };
  /** Starts counting DOM mutations and input/change events; returns a token for this document. */
  watchStart(args: Record<string, never>): string;
  /** Waits for quiet; the change count, or -1 when this is no longer the watched document. */
  watchSettle(args: { token: string; quietMs: number; maxMs: number; inputQuietMs?: number; keep?: boolean }): Promise<number>;
  /** True when `text` is visible on the page (case-insensitive). */
  hasText(args: { text: string }): boolean;
  /** Submits the located element's form the way Enter would (requestSubmit). */
  submitForm(args: Record<string, never>): boolean;
  /** Draws numbered boxes (set-of-mark) over the page; secret fields get an opaque mask. */
  showMarks(args: { marks: { id: number; x: number; y: number; width: number; height: number }[] }): number;
  /** Removes what showMarks drew. */
  clearMarks(args: Record<string, never>): void;
  /**
   * Every passage of the page the person cannot see (adjacent hidden text runs merged), judged
   * per run from layout and paint (shared/src/collector/visibility/); no length or count limit.
   */
  hiddenText(args: Record<string, never>): string[];
  /** Facts about element `id` for approvals (null when it is gone); does not move the page. */
  describe(args: LocateArgs): TargetFacts | null;
  /** Whether the located checkbox / radio / switch is on (null: it has no such state). */
  checkedState(args: Record<string, never>): boolean | null;
}

export type PageCallName = keyof PageCalls;
export type PageCallArgs<K extends PageCallName> = Parameters<PageCalls[K]>[0];
export type PageCallResult<K extends PageCallName> = Awaited<ReturnType<PageCalls[K]>>;

/** The global the injected page agent defines (non-enumerable, in the collector's world). */
export const PAGE_AGENT_GLOBAL = "__sightlinePageAgent__";
