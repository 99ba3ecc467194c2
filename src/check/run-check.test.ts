import path from "node:path";
import { describe, expect, it } from "vitest";
import { MUTANTS } from "#src/fuzz/mutants.js";
import { findScenarioFiles } from "./load-scenario.js";
import { referenceRunner, runCheck } from "./run-check.js";

const bundled = path.join(import.meta.dirname, "../../contracts/scenarios");
const files = findScenarioFiles({ args: [], bundledDir: bundled });
const now = () => performance.now();

describe("bundled scenarios", () => {
  it("hold at least 12 scenarios and all pass with the reference harness", async () => {
    const r = await runCheck({ files, harness: "reference", runner: referenceRunner({ now }), now });
    expect(files.length).toBeGreaterThanOrEqual(12);
    expect(r.scenarios.filter((s) => !s.passed).map((s) => ({ id: s.id, failures: s.failures }))).toEqual([]);
  });

  // Each mutant breaks exactly the rule one scenario is about, so the contracts have teeth.
  it.each([
    ["resend-timed-out-click", "click-timeout-after-effect", "no-replay-after-unknown"],
    ["never-rebuild-session", "daemon-died-midcall", "rebuild-before-mutation"],
    ["unverifiable-is-done", "click-unverifiable", "decision"],
    ["trust-empty-window-list", "list-windows-empty", "decision"],
    ["raw-key-combo", "blocked-key-combo", "blocked_by"],
    ["ignore-frame-lease", "stale-frame-window-moved", "blocked_by"],
  ])("the %s mutant fails %s (%s)", async (name, scenario, kind) => {
    const mutant = MUTANTS.find((m) => m.name === name)!;
    const r = await runCheck({ files, harness: name, runner: referenceRunner({ parts: mutant.parts, now }), now });
    const failed = r.scenarios.find((s) => s.id === scenario)!;
    expect(failed.passed).toBe(false);
    expect(failed.failures.some((f) => f.kind === kind || f.invariant === kind)).toBe(true);
  });
});
