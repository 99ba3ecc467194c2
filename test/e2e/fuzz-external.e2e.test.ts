import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../helpers/run-cli.js";

const example = path.join(repoRoot, "examples/harness-python");
const cassette = path.join(repoRoot, "contracts/scenarios/cassettes/gtk3demo-click-timeout");
// A case found by `fuzz --cmd "python3 harness_buggy.py" --cassette … --seed 100 --runs 60`, shrunk:
// the recorded flow with the daemon dying during the first mutation (the click).
const found = ["--cassette", cassette, "--seed", "107", "--runs", "1", "--path", "0:0:2:1:1", "--json"];

describe("fuzz --cmd (an external harness)", () => {
  it("replays the shrunk case that catches the harness re-sending a click after the daemon died", async () => {
    const r = await runCli(["fuzz", "--cmd", "python3 harness_buggy.py", ...found], { cwd: example });
    expect(r.exitCode, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { failures: { invariant: string; case: { rules: unknown[] }; reproduce: string }[] };
    expect(doc.failures[0]!.invariant).toBe("no-replay-after-unknown");
    expect(doc.failures[0]!.case.rules).toEqual([{ match: { kind: "mutation", nth: 1 }, fault: { kind: "daemon_died_midcall" } }]);
    expect(doc.failures[0]!.reproduce).toContain("--cmd 'python3 harness_buggy.py'");
  });

  it("finds nothing wrong with the fail-closed harness on the same case", async () => {
    const r = await runCli(["fuzz", "--cmd", "python3 harness.py", ...found], { cwd: example });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).violations).toBe(0);
  });

  it("rejects --cmd with --mutants", async () => {
    const r = await runCli(["fuzz", "--cmd", "python3 harness.py", "--mutants"], { cwd: example });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--cmd names the harness; it cannot be combined with --harness or --mutants");
  });
});
