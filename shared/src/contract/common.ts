// Objects shared by both endpoints (spec 2.3, bbox/viewport shapes).
import { z } from "zod";

/**
 * A finite number: zod 4's number already refuses NaN and ±Infinity (a JSON number such as
 * 1e400 parses to Infinity). No refinement, so the raw-element predicate can be compiled.
 */
export const FiniteNumberSchema = z.number();
const finite = FiniteNumberSchema;

export const BboxSchema = z.object({
  x: finite,
  y: finite,
  width: finite,
  height: finite,
});
export type Bbox = z.infer<typeof BboxSchema>;

/** Width and height must be positive numbers (spec 7.2 "Invalid viewport dimensions"). */
export const ViewportSchema = z.looseObject({
  width: z.number().positive(),
  height: z.number().positive(),
});
export type Viewport = { width: number; height: number };

/** Spec 2.3: applied before element selection, on both endpoints. */
export const FilterSchema = z.looseObject({
  min_area: z.number().nonnegative().optional(),
  allowed_tags: z.array(z.string()).optional(),
  allowed_roles: z.array(z.string()).optional(),
});
export type Filter = {
  min_area?: number;
  allowed_tags?: string[];
  allowed_roles?: string[];
};

export const RequestStatusSchema = z.enum(["success", "error"]);
