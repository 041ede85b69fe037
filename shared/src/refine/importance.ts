// Importance 0..1000: the role tiers of spec 2.5 plus adjustments a user would agree with
// (visible beats hidden, on-screen beats off-screen, labelled beats anonymous, a big coloured
// call-to-action beats a plain link of the same tier). Raw points are mapped linearly onto
// 0..1000, so the mapping is monotonic and never clamps.
import { TIER_HIGH, TIER_MEDIUM, tierPoints } from "./roles.js";
import { toNumber } from "./text.js";

const IN_VIEWPORT = 300;
const NOT_OCCLUDED = 200;
const SIZE_MAX = 100;
const LABELLED = 100;
const PROMINENCE_MAX = 100;
const ENABLED = 100;
/** Bonus for a clickable element whose role sits below the medium tier (e.g. a clickable heading). */
const CLICKABLE_LOW = 50;
/** Covered by an open modal: more than a tier gap, so the modal's own controls come first. */
const BEHIND_MODAL = 600;
const RAW_MAX = TIER_HIGH + IN_VIEWPORT + NOT_OCCLUDED + SIZE_MAX + LABELLED + PROMINENCE_MAX + ENABLED;

export interface ImportanceInput {
  role: string;
  inViewport: boolean;
  occluded: boolean;
  /** No box, or hidden by style. */
  invisible: boolean;
  /** Occluded while a modal is open, and not part of it (set after modal detection). */
  behindModal: boolean;
  area: number;
  labelled: boolean;
  disabled: boolean;
  clickable: boolean;
  /** Background is a saturated, mid-light colour (call-to-action look). */
  vivid: boolean;
  fontWeight: number | null;
  fontSizePx: number | null;
  isSubmit: boolean;
}

/** log2(area) scaled: 16 px² → 0, ~16,000 px² (e.g. 200x80) and above → full points. */
function sizePoints(area: number): number {
  if (!(area > 16)) return 0;
  const s = (Math.log2(area) - 4) / 10;
  return s >= 1 ? SIZE_MAX : s * SIZE_MAX;
}

export function prominencePoints(i: ImportanceInput): number {
  let p = 0;
  if (i.vivid) p += 50;
  if (i.fontWeight !== null && i.fontWeight >= 600) p += 25;
  if (i.fontSizePx !== null && i.fontSizePx >= 18) p += 25;
  return p;
}

export function importanceOf(i: ImportanceInput): number {
  let tier = tierPoints(i.role);
  if (i.clickable && tier < TIER_MEDIUM) tier += CLICKABLE_LOW;
  // Nothing to see or click (no box, opacity 0, visibility hidden): only a tenth of the tier,
  // so a hidden field never outranks a visible control.
  if (i.invisible) return Math.round((tier / 10) * 1000 / RAW_MAX);
  let raw = tier;
  if (i.inViewport) raw += IN_VIEWPORT;
  if (!i.occluded) raw += NOT_OCCLUDED;
  raw += sizePoints(i.area);
  if (i.labelled) raw += LABELLED;
  raw += prominencePoints(i);
  if (!i.disabled) raw += ENABLED;
  if (i.behindModal) raw = Math.max(0, raw - BEHIND_MODAL);
  return Math.round((raw * 1000) / RAW_MAX);
}

/**
 * is_primary: an enabled, visible clickable control that looks like the page's main action —
 * a submit button, or a button/link with a vivid background, or bold large button text.
 */
export function isPrimary(i: ImportanceInput): boolean {
  if (i.disabled || !i.clickable || i.area <= 0) return false;
  const buttonish = i.role === "button" || i.role === "link" || i.role === "menuitem" || i.role === "tab";
  if (!buttonish) return false;
  if (i.isSubmit && i.role === "button") return true;
  if (i.vivid) return true;
  return i.role === "button" && i.fontWeight !== null && i.fontWeight >= 700 && (i.fontSizePx ?? 0) >= 16;
}

const WEIGHT_WORDS: Record<string, number> = { normal: 400, bold: 700, bolder: 700, lighter: 300 };

export function parseFontWeight(v: unknown): number | null {
  if (typeof v === "string") {
    const k = v.trim().toLowerCase();
    if (Object.hasOwn(WEIGHT_WORDS, k)) return WEIGHT_WORDS[k];
  }
  return toNumber(v);
}
