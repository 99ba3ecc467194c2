// Which test files run in which command. `npm test` runs the suite: every unit and end-to-end test
// that needs no throwaway desktop and is not a long battery. Two tiers run in commands of their own,
// each run by .ci/run after `npm test`:
// - `npm run test:desktop`: the files that start a throwaway desktop (Xvfb, at-spi, gtk3-demo) and
//   drive the real runtime on it. test/tiers.test.ts fails when a file under src/ or test/ that starts
//   one is not here. (The vitest example, examples/vitest, records afresh on a desktop when it has one
//   and replays its cassette without: it stays in `npm test`, as a user runs it.)
// - `npm run test:writers`: the writers' kill and pair batteries (docs/cassettes.md, "Writing safely"),
//   at their full trial count.

/** Test files that start a throwaway desktop: `npm run test:desktop`. */
export const DESKTOP_FILES = [
  "test/e2e/desktop.e2e.test.ts",
  "test/e2e/eras-python-client-live.e2e.test.ts",
  "test/e2e/gate-verify.e2e.test.ts",
  "test/e2e/import-live.e2e.test.ts",
  "test/e2e/record-faults-desktop-cli.e2e.test.ts",
  "test/e2e/record-faults-desktop-mcp.e2e.test.ts",
  "test/e2e/record-missing.e2e.test.ts",
  "test/e2e/sdk-record.e2e.test.ts",
];

/** The writers' kill and pair batteries: `npm run test:writers`. */
export const WRITERS_BATTERY_FILES = ["test/e2e/writers/crash.e2e.test.ts", "test/e2e/writers/live-writers.e2e.test.ts"];
