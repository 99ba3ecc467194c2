// `cua-contract/vitest`: a cassette per test, the record/replay switch and matchers over the replay
// log. Importing it registers the matchers with vitest's expect.
export { test } from "#src/vitest/test.js";
export { useCassette, type CassetteHandle, type UseCassetteOptions } from "#src/vitest/use-cassette.js";
export { CASSETTE_MODES, resolveMode, type CassetteMode } from "#src/vitest/mode.js";
export {
  cassetteMatchers,
  toPassInvariants,
  toHaveServedAll,
  toHaveDecision,
  type ExpectedDecision,
  type Judged,
  type MatcherResult,
} from "#src/vitest/matchers.js";
export type { HarnessRun } from "#src/vitest/harness-run.js";
