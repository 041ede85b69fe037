// A plain yes/no check compiled from a zod schema, for the hot path: a /v1/snapshot body
// carries thousands of raw elements, and zod's safeParse (which builds a result per element
// and tracks issue paths) cost 0.5–0.65× a JSON.parse + JSON.stringify of the whole body. The
// schema stays the single source of truth: the predicate is generated from it, answers what
// `schema.safeParse(v).success` answers (property-tested in shared/test/contract), and zod
// still writes the error message when the answer is no.
//
// Only the constructs the element schemas use are supported; anything else (a refinement,
// a length check, a strict object…) throws when the predicate is built, so a schema change
// can never make the fast check silently laxer than zod.
//
// Generated source, as zod's own JIT does: property reads with constant names are what make
// it fast (closures reading `v[key]` with a varying key were no faster than zod). Where code
// generation is not allowed (an extension page's CSP), the predicate is zod itself.
import type { z } from "zod";

export type Predicate = (v: unknown) => boolean;

/** The parts of zod 4's schema definition (`schema._zod.def`) this compiler reads. */
interface Def {
  type: string;
  checks?: unknown[];
  innerType?: ZodLike;
  options?: ZodLike[];
  shape?: Record<string, ZodLike>;
  catchall?: ZodLike;
  element?: ZodLike;
}
interface ZodLike {
  _zod: { def: Def };
}

function unsupported(def: Def, why: string): never {
  throw new Error(`compilePredicate: ${def.type} schema ${why}; extend predicate.ts (and its equivalence test) or validate with zod`);
}

/** Source of one generated module: helper functions for objects and arrays, and expressions. */
class Generator {
  readonly functions: string[] = [];

  /** A boolean JavaScript expression that is true when the value of variable `x` passes. */
  expr(schema: ZodLike, x: string): string {
    const def = schema._zod.def;
    if (def.checks?.length) unsupported(def, "with checks (refine, min, …)");
    switch (def.type) {
      // zod 4's number refuses NaN and ±Infinity.
      case "number":
        return `(typeof ${x} === "number" && isFinite(${x}))`;
      case "string":
        return `(typeof ${x} === "string")`;
      case "boolean":
        return `(typeof ${x} === "boolean")`;
      case "null":
        return `(${x} === null)`;
      case "unknown":
      case "any":
        return "true";
      case "optional":
        return `(${x} === undefined || ${this.expr(def.innerType!, x)})`;
      case "nullable":
        return `(${x} === null || ${this.expr(def.innerType!, x)})`;
      case "union":
        return `(${def.options!.map((o) => this.expr(o, x)).join(" || ")})`;
      case "array":
        return `${this.arrayFn(def)}(${x})`;
      case "object":
        return `${this.objectFn(def)}(${x})`;
      default:
        return unsupported(def, "is not supported");
    }
  }

  private add(body: string): string {
    const name = `f${this.functions.length}`;
    this.functions.push(`function ${name}(v) {\n${body}\n}`);
    return name;
  }

  private arrayFn(def: Def): string {
    return this.add(
      `if (!Array.isArray(v)) return false;\nfor (let i = 0; i < v.length; i++) { const x = v[i]; if (!${this.expr(def.element!, "x")}) return false; }\nreturn true;`,
    );
  }

  private objectFn(def: Def): string {
    // Unknown keys: a plain object strips them, a loose one keeps them; neither fails.
    const extra = def.catchall?._zod.def.type;
    if (extra !== undefined && extra !== "unknown" && extra !== "any") unsupported(def, `with a ${extra} catchall`);
    const shape = Object.entries(def.shape!);
    // The keys present are visited (for-in over a parsed object is fast, and reads each value
    // by its slot), not every key of the shape: most optional keys are absent, and reading an
    // absent key from objects of many shapes (links, buttons, fields…) is a slow lookup. A
    // required key is read by name instead: absent, it reads undefined, which its check refuses.
    // (For-in sees enumerable keys only: the same answer as zod's for objects JSON.parse makes.)
    const optional = shape.filter(([, s]) => acceptsUndefined(s));
    const required = shape.filter(([, s]) => !acceptsUndefined(s));
    const cases = optional.map(([key, s]) => `case ${JSON.stringify(key)}: if (!${this.expr(s, "x")}) return false; break;`);
    const reads = required.map(([key, s], i) => `const r${i} = v[${JSON.stringify(key)}]; if (!${this.expr(s, `r${i}`)}) return false;`);
    const lines = [
      `if (typeof v !== "object" || v === null || Array.isArray(v)) return false;`,
      ...reads,
      ...(cases.length ? ["for (const k in v) {", "const x = v[k];", "switch (k) {", ...cases, "}", "}"] : []),
      "return true;",
    ];
    return this.add(lines.join("\n"));
  }
}

/** Whether a schema accepts undefined (an optional field may be absent). */
function acceptsUndefined(schema: ZodLike): boolean {
  const def = schema._zod.def;
  switch (def.type) {
    case "optional":
    case "unknown":
    case "any":
      return true;
    case "nullable":
      return acceptsUndefined(def.innerType!);
    case "union":
      return def.options!.some(acceptsUndefined);
    default:
      return false;
  }
}

/** The generated module's source (for tests and for reading what it does). */
export function predicateSource(schema: z.ZodType): string {
  const gen = new Generator();
  const top = gen.expr(schema as unknown as ZodLike, "v");
  return `${gen.functions.join("\n")}\nreturn function check(v) { return ${top}; };`;
}

/** `(v) => schema.safeParse(v).success`, without building results or error paths. */
export function compilePredicate(schema: z.ZodType): Predicate {
  const source = predicateSource(schema); // throws on unsupported schemas, eval or not
  try {
    // isFinite passed in: the generated code never depends on globals a host page could replace.
    return new Function("isFinite", source)(Number.isFinite) as Predicate;
  } catch {
    return (v) => schema.safeParse(v).success; // code generation refused (CSP)
  }
}
