import { configDefaults, defineConfig } from "vitest/config";
import LongestFirst from "./test/sequencer.js";
import { DESKTOP_FILES, WRITERS_BATTERY_FILES } from "./test/tiers.js";

// test files that run the real runtime on a throwaway desktop in the test process
const OWN_PROCESS = ["examples/vitest/**/*.test.ts"];

// `#src/*` (package.json "imports") is the source under this condition, the build without it
// (then Vite's own server conditions)
const conditions = ["cua-contract-source", "module", "node", "development|production"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // most e2e time is spent waiting on child processes and harness timeouts, not on the CPU:
    // more workers than the default (cores − 1) keep both cores busy
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    // `npm test` runs the projects "suite" and "e2e-own-process"; the desktop and writers' tiers
    // (test/tiers.ts) have commands of their own, `npm run test:desktop` and `npm run test:writers`;
    // `npx vitest run` runs every project
    projects: [
      {
        extends: true,
        test: {
          // the unit files (src/) and the end-to-end files (test/, examples/) in one project, so that
          // they share its workers: each worker loads zod, the MCP SDK, sharp and the engine once
          // (a project of their own each had twice the workers load them: about 12 % of the CPU a run)
          name: "suite",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
          // The docs' shell blocks run in their own pass (`npm run test:docs`, which CI runs after `npm test`).
          exclude: [
            ...configDefaults.exclude,
            ...DESKTOP_FILES,
            ...OWN_PROCESS,
            ...WRITERS_BATTERY_FILES,
            ...(process.env.CUA_CONTRACT_DOCS ? [] : ["test/docs/docs.test.ts"]),
          ],
          // files share a worker's module cache: what a test changes in the process it puts back
          // (runCliInProcess, vi.stubEnv), and the pure core keeps no module state (test/architecture.test.ts)
          isolate: false,
        },
      },
      { extends: true, test: { name: "desktop", include: DESKTOP_FILES, isolate: false } },
      {
        extends: true,
        test: {
          name: "e2e-own-process",
          include: OWN_PROCESS,
          // The real runtime run on a desktop inside the test process: it keeps one accessibility
          // connection per process, so a desktop after another in the same process reads as windows
          // without trees (docs/discoveries/runtime-one-desktop-per-process.md). A process of its own.
          isolate: true,
        },
      },
      { extends: true, test: { name: "writers", include: WRITERS_BATTERY_FILES, isolate: false } },
    ],
  },
});
