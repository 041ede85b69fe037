// The state collect()'s walk (collect.ts), record emission (record.ts) and frame handling
// (frames.ts) share, in a module of its own so that none of them imports another's types.
import type { RawElement } from "../contract/index.js";
import type { NameContext } from "./name.js";
import type { LabelPatch } from "./element-labels.js";
import type { HrefResolver } from "./href.js";
import type { HitFrame } from "./occlusion.js";
import type { CollectorState } from "./state.js";
import type { StyleOf } from "./style-cache.js";
import type { RuleSets } from "./style-rules.js";
import type { PurposeCache } from "./purpose.js";

/** A document being walked: the top one or a same-origin frame. */
export interface Frame extends HitFrame {
  win: Window;
  /** Visible part of this frame, top-viewport coordinates. */
  clip: { l: number; t: number; r: number; b: number };
  out: RawElement[];
  depth: number;
  /** Elements given click-like listeners (the init script's records), or null: none recorded. */
  listeners: WeakSet<object> | null;
  /** Also read looks (no records, or the page listens at the top and may delegate from there). */
  looks: boolean;
}

/** What an element passes down to its subtree. */
export interface Inherited {
  container: number;
  sequence: boolean;
  /** Inside an interactive candidate (its descendants are parts of it, not new controls). */
  interactiveArea: number;
  parentPointer: boolean;
  shadow: boolean;
  /** A container whose click listener serves its look-alike children (event delegation). */
  delegate: Element | null;
  /** Inside a recorded listener's subtree: its parts may be what it handles, so read their looks. */
  looks: boolean;
}

/** An emitted element in the viewport, hit-tested for occlusion after the walk. */
export interface Pending {
  el: Element;
  raw: RawElement;
  frame: Frame;
}

/** A positioned box that may paint over others (fixed, sticky, absolute, z-indexed). */
export interface Occluder {
  el: Element;
  x: number;
  y: number;
  r: number;
  b: number;
}

/** What one collect() carries through its walk. */
export interface Ctx {
  allRoles: boolean;
  /** Ask each frame's page world for its listener records (CollectOptions.pageListeners). */
  pageListeners: boolean;
  names: NameContext;
  labels: LabelPatch | null;
  hrefs: HrefResolver;
  state: CollectorState;
  rules: RuleSets;
  occluders: Occluder[];
  style: StyleOf;
  vw: number;
  vh: number;
  scrollY: number;
  max: number;
  textMax: number;
  frames: boolean;
  viewportOnly: boolean;
  count: number;
  pending: Pending[];
  /** Every emitted element, when collect() judges what of their text the person sees (textVisibility). */
  judged: Pending[] | null;
  secrets: string[];
  /** Each form's purpose facts, read once per collect() (purpose.ts). */
  purposes: PurposeCache;
}
