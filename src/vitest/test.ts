// The vitest `test` with a cassette fixture, and the matchers it registers with vitest's expect
// when it is imported (the `cua-contract/vitest` entry, src/public/vitest.ts, re-exports it).
import { expect, test as baseTest } from "vitest";
import { cassetteMatchers, type ExpectedDecision } from "./matchers.js";
import { useCassette, type CassetteHandle, type UseCassetteOptions } from "./use-cassette.js";

expect.extend({
  toPassInvariants: (received, only?: readonly string[]) => cassetteMatchers.toPassInvariants(received, only),
  toHaveServedAll: (received) => cassetteMatchers.toHaveServedAll(received),
  toHaveDecision: (received, step: number | { tool: string; nth?: number }, decision: ExpectedDecision) =>
    cassetteMatchers.toHaveDecision(received, step, decision),
});

/**
 * `test` with a `cassette` fixture: `await cassette(dir, options)` opens a cassette for the test
 * and closes it (shim, recording, desktop) when the test ends, whether it passed or not.
 */
export const test = baseTest.extend<{ cassette: (dir: string, options?: UseCassetteOptions) => Promise<CassetteHandle> }>({
  // vitest reads the fixtures a fixture uses from its first parameter, which must be a destructuring pattern
  // biome-ignore lint/correctness/noEmptyPattern: vitest requires an object pattern here, even an empty one
  cassette: async ({}, use) => {
    const opened: CassetteHandle[] = [];
    try {
      await use(async (dir, options) => {
        const handle = await useCassette(dir, options);
        opened.push(handle);
        return handle;
      });
    } finally {
      for (const h of opened.reverse()) await h.close();
    }
  },
});

interface CassetteMatchers<R = unknown> {
  /** Every invariant (or those named) holds over the replay log. */
  toPassInvariants(only?: readonly string[]): R;
  /** No unmatched request; every recorded mutation used. */
  toHaveServedAll(): R;
  /** Request `step` (log `n`, or `{ tool, nth }`) had this outcome / fault / match. */
  toHaveDecision(step: number | { tool: string; nth?: number }, decision: ExpectedDecision): R;
}

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration must repeat vitest's own `Matchers<T = any>` to merge with it
  interface Matchers<T = any> extends CassetteMatchers<T> {}
}
