import { INVARIANT_IDS } from "#src/invariants/registry.js";
import { readFileSync, writeFileSync, mkdirSync, cpSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CheckResultSchema } from "#src/schema/check-result.js";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const scenario = (name: string) => path.join(repoRoot, "contracts/scenarios", `${name}.json`);

/** A copy of a bundled scenario with changes, beside a copy of its cassette, in a temp dir. */
function variant(dir: string, name: string, edit: (doc: Record<string, unknown>) => void): string {
  const doc = JSON.parse(readFileSync(scenario(name), "utf8")) as Record<string, unknown>;
  edit(doc);
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

describe("cua-contract check", () => {
  it("passes every bundled scenario with the reference harness (npm start)", async () => {
    const r = await runCliInProcess(["check", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const result = CheckResultSchema.parse(JSON.parse(r.stdout));
    expect(result.scenarios.length).toBeGreaterThanOrEqual(12);
    expect(result.failed).toBe(0);
    expect(result.passed).toBe(result.scenarios.length);
    for (const s of result.scenarios) {
      expect(s.failures).toEqual([]);
      expect(s.invariants.map((i) => i.id)).toHaveLength(INVARIANT_IDS.length);
      expect(["synthetic", "sdk"]).toContain(s.source);
    }
    expect(result.scenarios.filter((s) => s.source === "sdk").map((s) => s.id)).toContain("stale-element-token");
  });

  it("prints one line per scenario and a summary", async () => {
    const r = await runCliInProcess(["check", scenario("click-unverifiable"), scenario("loop-guard")], { env: { NO_COLOR: "1" } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^✓ click-unverifiable {2}An unverifiable click/m);
    expect(r.stdout).toContain("2 of 2 scenarios passed with the reference harness");
  });

  it("fails a broken harness, naming the step, the expectation and the invariant, and writes JUnit and HTML", async () => {
    await using dir = await tmpDir();
    const junit = path.join(dir.path, "check.xml");
    const report = path.join(dir.path, "check.html");
    const r = await runCliInProcess([
      "check",
      "--harness",
      "resend-timed-out-click",
      "--junit",
      junit,
      "--report",
      report,
      scenario("click-timeout-after-effect"),
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("✗ click-timeout-after-effect");
    expect(r.stdout).toMatch(/no-replay-after-unknown: #\d+ click .* re-sends #\d+ click/);
    expect(r.stdout).toMatch(/step 6: expected calls start_session → list_windows → get_window_state in order/);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('<testcase name="click-timeout-after-effect" classname="scenarios"');
    expect(xml).toContain("<failure");
    const html = readFileSync(report, "utf8");
    expect(html).toContain("click-timeout-after-effect");
    expect(html).toContain("no-replay-after-unknown");
  });

  describe("bad input exits 2 naming file, field and fix", () => {
    it("a missing cassette", async () => {
      await using dir = await tmpDir();
      const file = variant(dir.path, "click-confirmed", (d) => (d.cassette = "cassettes/nope"));
      const r = await runCliInProcess(["check", file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`${file}: cassette: the cassette cassettes/nope does not exist`);
      expect(r.stderr).toContain("Give a cassette directory relative to the scenario file");
    });
    it("an unknown action, with the nearest name", async () => {
      await using dir = await tmpDir();
      mkdirSync(path.join(dir.path, "cassettes"));
      cpSync(path.join(repoRoot, "contracts/scenarios/cassettes/gtk3demo-click-confirmed"), path.join(dir.path, "cassettes/gtk3demo-click-confirmed"), {
        recursive: true,
      });
      const file = variant(dir.path, "click-confirmed", (d) => ((d.steps as Record<string, unknown>[])[1]!.action = "clik"));
      const r = await runCliInProcess(["check", file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`${file}: steps[1].action: unknown action "clik". Did you mean "click"?`);
    });
    it("an expectation for a step that does not exist", async () => {
      await using dir = await tmpDir();
      const file = variant(dir.path, "click-confirmed", (d) => ((d.expect as { steps: { step: number }[] }).steps[0]!.step = 9));
      const r = await runCliInProcess(["check", file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("expect.steps[0].step: expectation refers to step 9, but the scenario has 2 steps. Use a 1-based step number from 1 to 2.");
    });
    it("a schema violation names the JSON path", async () => {
      await using dir = await tmpDir();
      const file = variant(
        dir.path,
        "click-confirmed",
        (d) => ((d.faults as { rules: unknown[] }) = { rules: [{ match: { tool: "click" }, fault: { kind: "explode" } }] }),
      );
      const r = await runCliInProcess(["check", file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/faults\.rules\[0\]\.fault\.kind: .*See contracts\/schema\/scenario\.schema\.json/);
    });
    it("a --cmd that is not found, and an unknown --harness", async () => {
      const cmd = await runCliInProcess(["check", "--cmd", "no-such-harness-xyz --flag"]);
      expect(cmd.exitCode).toBe(2);
      expect(cmd.stderr).toContain('--cmd: the harness command "no-such-harness-xyz" was not found on PATH');
      const harness = await runCliInProcess(["check", "--harness", "nope"]);
      expect(harness.exitCode).toBe(2);
      expect(harness.stderr).toContain('--harness: unknown harness "nope"');
    });
  });
});
