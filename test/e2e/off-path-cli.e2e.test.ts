// A fail-closed Python harness (examples/fail-closed-python) recorded over per-call CLI with no faults, then
// replayed with every fault kind on its click and on its type_text: a correct harness goes where the
// recording never went (a rebuild, a re-read, the next action after one that did not take effect) and
// must pass; its buggy twins must be caught. MCP over HTTP: off-path-http.e2e.test.ts.
import { describe, expect, it } from "vitest";
import { FAULTS, TWINS, inPairs, replayRun, useRecordings } from "./off-path/fixture.js";

const transport = "cli";
useRecordings([transport]);

describe("a fail-closed harness over cli, off the recorded path", () => {
  it("passes every fault kind on its click and on its type_text: exit 0, nothing unmatched, every synthesized answer logged with its basis", {
    timeout: 240_000,
  }, async () => {
    const cases = ["click", "type_text"].flatMap((tool) => FAULTS.map((fault) => ({ tool, fault })));
    const runs = await inPairs(
      cases.map(
        ({ tool, fault }) =>
          () =>
            replayRun({ transport, script: ["harness.py"], tool, fault }),
      ),
    );
    const failures = runs
      .map((run, i) => ({ run, name: `${cases[i]!.tool} ${JSON.stringify(cases[i]!.fault)}` }))
      .filter(({ run }) => run.exitCode !== 0 || run.summary.unmatched !== 0 || run.summary.violations.length > 0)
      .map(
        ({ run, name }) =>
          `${name}: exit ${run.exitCode}, unmatched ${run.summary.unmatched}, ${run.summary.violations.map((v) => v.id).join(" ")}\n${run.stderr}`,
      );
    expect(failures).toEqual([]);
    for (const run of runs) {
      const synthesized = run.requests.filter((r) => r.synthesized !== undefined);
      expect(run.summary.synthesized).toBe(synthesized.length);
      for (const r of synthesized) {
        expect(r.basis, `#${r.n} ${r.tool}`).toBeDefined();
        expect(r.basis!.source === "cassette" ? r.basis!.seq : r.basis!.source, `#${r.n} ${r.tool}`).toBeDefined();
        expect((r.basis!.detail ?? "").length, `#${r.n} ${r.tool}`).toBeGreaterThan(20);
      }
    }
    // the runs really left the recorded path: a mutation that did not take effect is skipped over
    const before = runs[cases.findIndex((c) => c.tool === "type_text" && c.fault.kind === "timeout_before_effect")]!;
    const skipped = before.requests.find((r) => r.synthesized === "skipped_ahead");
    expect(skipped).toMatchObject({ tool: "click", outcome: "replayed" });
    expect(skipped!.basis?.detail).toMatch(/type_text did not take effect \(timeout_before_effect/);
  });
});

describe("the buggy twins are caught over cli", () => {
  it.each(TWINS)("$twin with $fault.kind on $tool", { timeout: 60_000 }, async ({ twin, tool, fault, expected }) => {
    const run = await replayRun({ transport, script: ["twins.py", twin], tool, fault });
    expect(run.exitCode).toBe(1);
    expect(run.summary.unmatched).toBe(0);
    expect([...new Set(run.summary.violations.map((v) => v.id))].sort()).toEqual(expected[transport]);
  });
});
