// Dependency-rule linter: fails when code imports across the layer rules in layers.ts, or when
// isomorphic/browser code uses an API of a platform it must not depend on (checked by tsc with
// only that platform's types: shared/tsconfig.isomorphic.json, shared/tsconfig.browser.json, run
// by .ci/typecheck.mjs).
import { describe, expect, it } from "vitest";
import { checkOutput } from "../../.ci/typecheck.mjs";
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LAYERS, MAY_IMPORT, PACKAGES, type Layer } from "./layers.js";
import { sourceEntries } from "../../shared/scripts/entry-points.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const ts = require("typescript") as typeof import("typescript");

function layerOf(rel: string): Layer | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(LAYERS)) {
    if ((rel === prefix || rel.startsWith(prefix)) && (!best || prefix.length > best.length)) best = prefix;
  }
  return best ? LAYERS[best] : undefined;
}

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** Each entry point of shared/package.json → its source, relative to the repo root. */
const ENTRY_SOURCES = new Map(sourceEntries().map((e) => [e.name, relative(root, e.source)]));
/** The package's built bundles (injected into pages as scripts). */
const BUNDLES = new Set(["@sightline/shared/collector.js", "@sightline/shared/page-agent.js", "@sightline/shared/package.json"]);

const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const packageName = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);

function violations(): string[] {
  const files = ["shared", "server", "extension", "bench"].flatMap((d) => walk(join(root, d)));
  return files.flatMap((file) => checkFile(relative(root, file), readFileSync(file, "utf8")));
}

/** Problems with one file's imports, given its path relative to the repo root. */
function checkFile(rel: string, source: string): string[] {
  const problems: string[] = [];
  const file = join(root, rel);
  const layer = layerOf(rel);
  if (layer) {
    const info = ts.preProcessFile(source, true, true);
    for (const { fileName: spec } of info.importedFiles) {
      if (spec.startsWith(".")) {
        const target = relative(root, resolve(dirname(file), spec));
        const targetLayer = layerOf(target.replace(/\.js$/, ".ts")) ?? layerOf(target);
        if (targetLayer && !MAY_IMPORT[layer].includes(targetLayer)) {
          problems.push(`${rel}: ${layer} code imports ${targetLayer} code (${spec})`);
        }
        continue;
      }
      if (spec === "@sightline/shared" || spec.startsWith("@sightline/shared/")) {
        // An entry point is of the layer of the source it is built from (package.json exports);
        // a built bundle (collector.js, page-agent.js) is browser code run as a script, not imported.
        const source = ENTRY_SOURCES.get(spec);
        if (source === undefined) {
          if (!BUNDLES.has(spec)) problems.push(`${rel}: imports ${spec}, which is not an entry point of shared/package.json`);
          continue;
        }
        const targetLayer = layerOf(source);
        if (targetLayer && !MAY_IMPORT[layer].includes(targetLayer)) {
          problems.push(`${rel}: ${layer} code imports ${targetLayer} entry point ${spec}`);
        }
        continue;
      }
      if (spec.startsWith("@sightline/")) {
        if (layer !== "node") problems.push(`${rel}: ${layer} code imports ${spec}`);
        continue;
      }
      if (layer === "node") continue;
      if (nodeBuiltins.has(spec)) {
        problems.push(`${rel}: ${layer} code imports the Node built-in ${spec}`);
        continue;
      }
      const pkg = packageName(spec);
      if (!PACKAGES[layer].includes(pkg) && !PACKAGES[layer].includes(spec)) {
        problems.push(`${rel}: ${layer} code imports ${pkg}, not on the ${layer} package list (test/architecture/layers.ts)`);
      }
    }
  }
  return problems;
}

/** The module a relative import names, among the files scanned (.js → .ts, folder → index). */
function resolveImport(from: string, spec: string, known: Set<string>): string | undefined {
  const t = resolve(dirname(from), spec);
  return [t, t.replace(/\.js$/, ".ts"), t.replace(/\.mjs$/, ".mts"), `${t}.ts`, join(t, "index.ts")].find((c) => known.has(c));
}

/**
 * Import cycles among the project's modules (type-only imports count: a cycle of types still
 * ties two modules' meanings together), each as "a ↔ b ↔ …", by Tarjan's strongly connected
 * components over relative imports.
 */
export function importCycles(sources: Map<string, string>): string[] {
  const known = new Set(sources.keys());
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const deps = ts.preProcessFile(source, true, true).importedFiles
      .filter((i) => i.fileName.startsWith("."))
      .map((i) => resolveImport(file, i.fileName, known))
      .filter((d): d is string => d !== undefined);
    graph.set(file, deps);
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.map((f) => relative(root, f)).sort().join(" ↔ "));
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

function projectSources(): Map<string, string> {
  const files = ["shared/src", "server/src", "extension/src", "extension/entrypoints", "bench"].flatMap((d) => walk(join(root, d)));
  return new Map(files.map((f) => [f, readFileSync(f, "utf8")]));
}

describe("architecture: layer rules", () => {
  it("imports only go where layers.ts allows", () => {
    expect(violations()).toEqual([]);
  });

  it("no module imports itself through others (no import cycles)", () => {
    expect(importCycles(projectSources())).toEqual([]);
  });

  // tsc with one platform's types. `npm test` runs these checks once before the suite
  // (.ci/typecheck.mjs --record); a result is reused only while the sources it checked are
  // unchanged, else the check runs here.
  it("isomorphic code typechecks without DOM or Node types", () => {
    expect(checkOutput("isomorphic")).toBe("");
  }, 240_000);

  it("browser code typechecks without Node types", () => {
    expect(checkOutput("browser")).toBe("");
  }, 240_000);

  it("every entry point of shared/package.json is built from a source file of a known layer", () => {
    // One place declares an entry point (package.json exports); the tests' and the extension's
    // aliases are generated from it (shared/scripts/entry-points.mjs), and its layer is its
    // folder's. An entry whose source is missing or outside the layer table is named here.
    const pkg = JSON.parse(readFileSync(join(root, "shared/package.json"), "utf8")) as { exports: Record<string, unknown> };
    const names = Object.keys(pkg.exports).map((k) => (k === "." ? "@sightline/shared" : `@sightline/shared${k.slice(1)}`));
    const unbuilt = names.filter((n) => !ENTRY_SOURCES.has(n) && !BUNDLES.has(n));
    expect(unbuilt).toEqual([]);
    const unlayered = [...ENTRY_SOURCES].filter(([, source]) => !layerOf(source)).map(([name]) => name);
    expect(unlayered).toEqual([]);
  });

  it("finds the cycles it is meant to find", () => {
    const a = join(root, "shared/src/x/a.ts");
    const b = join(root, "shared/src/x/b.ts");
    const c = join(root, "shared/src/x/c.ts");
    const sources = new Map([
      [a, `import type { B } from "./b.js";`],
      [b, `export { c } from "./c.js";`],
      [c, `const a = await import("./a.js");`],
    ]);
    expect(importCycles(sources)).toEqual(["shared/src/x/a.ts ↔ shared/src/x/b.ts ↔ shared/src/x/c.ts"]);
    sources.set(c, "export const c = 1;");
    expect(importCycles(sources)).toEqual([]);
  });

  it("catches the violations it is meant to catch", () => {
    const collector = `import { readFileSync } from "node:fs";\nimport { x } from "../../../server/src/app.js";\nimport "lodash";`;
    expect(checkFile("shared/src/collector/x.ts", collector)).toHaveLength(3);
    const refine = `import { collect } from "../collector/index.js";\nimport type { Page } from "playwright-core";`;
    expect(checkFile("shared/src/refine/x.ts", refine)).toHaveLength(2);
    const server = `import { refineSnapshot } from "@sightline/shared/refine";\nimport { collect } from "@sightline/shared/collector";`;
    expect(checkFile("server/src/x.ts", server)).toEqual([
      "server/src/x.ts: node code imports browser entry point @sightline/shared/collector",
    ]);
    // An entry point's layer is its source's: the headless backend is Node's, wherever it is.
    const worker = `import { HeadlessBackend } from "@sightline/shared/agent/headless";\nimport { x } from "@sightline/shared/agent/nowhere";`;
    expect(checkFile("extension/src/x.ts", worker)).toEqual([
      "extension/src/x.ts: browser code imports node entry point @sightline/shared/agent/headless",
      "extension/src/x.ts: imports @sightline/shared/agent/nowhere, which is not an entry point of shared/package.json",
    ]);
  });
});
