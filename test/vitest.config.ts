// One vitest run for the whole workspace: unit tests beside each package (shared/test,
// server/test) and the cross-package / end-to-end tests here in test/.
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

// Tests import package sources directly, so a change is tested without a rebuild.
// (The collector IIFE bundle, shared/dist/collector.js, is built by `npm test` first.)
const alias = [
  {
    find: /^@sightline\/shared\/(contract|refine|rank|prompt|client|collector|overlay|playwright|agent|bridge|mcp|net)$/,
    replacement: `${root}shared/src/$1/index.ts`,
  },
  { find: /^@sightline\/shared$/, replacement: `${root}shared/src/index.ts` },
  { find: /^@sightline\/server$/, replacement: `${root}server/src/server.ts` },
];

export default defineConfig({
  resolve: { alias },
  test: {
    root,
    reporters: ["default", `${root}test/support/summary-reporter.ts`],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          root,
          // Fast unit tests first, then the browser/e2e group with its own worker limit.
          sequence: { groupOrder: 0 },
          include: ["shared/test/**/*.test.ts", "server/test/**/*.test.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          root,
          sequence: { groupOrder: 1 },
          include: ["test/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Browser-driving suites share 2 cores: keep files from starving each other.
          maxWorkers: 2,
          // Files of a worker share one module graph: the server and shared sources are
          // transformed and imported once per worker, not once per file (about a fifth of the
          // suite's wall time). Every file starts its own servers and browsers in its hooks, so
          // no state is shared through modules beyond caches that are the same for every file.
          isolate: false,
        },
      },
    ],
  },
});
