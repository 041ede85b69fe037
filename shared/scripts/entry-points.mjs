// The package's entry points, read from package.json "exports" (the one place a new entry point
// is declared), as the TypeScript sources they are built from. The extension's build (WXT
// aliases), the tests (vitest aliases) and the layer check (test/architecture) all take them
// from here, so they cannot disagree with the package.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const sharedRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * Every entry point built from TypeScript: its import name, and its source file (absolute).
 * Bundles (./collector.js, ./page-agent.js) and ./package.json are not among them.
 */
export function sourceEntries() {
  const pkg = JSON.parse(readFileSync(`${sharedRoot}package.json`, "utf8"));
  const out = [];
  for (const [key, value] of Object.entries(pkg.exports)) {
    const target = typeof value === "string" ? value : value.default;
    const m = /^\.\/dist\/(.+)\.js$/.exec(target);
    if (!m) continue;
    const source = `${sharedRoot}src/${m[1]}.ts`;
    if (!existsSync(source)) continue; // a bundle: built from another entry (scripts/build-collector.mjs)
    out.push({ name: key === "." ? pkg.name : `${pkg.name}${key.slice(1)}`, source });
  }
  return out;
}

/**
 * name → source, for a bundler's `alias` option (WXT, Vite). Longest names first: Vite takes the
 * first key that matches a prefix of the import ("@sightline/shared/agent" would otherwise
 * catch "@sightline/shared/agent/core").
 */
export function sourceAliases() {
  const entries = sourceEntries().sort((a, b) => b.name.length - a.name.length);
  return Object.fromEntries(entries.map((e) => [e.name, e.source]));
}
