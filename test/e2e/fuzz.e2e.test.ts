import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

describe("cua-contract fuzz", () => {
  // CI runs the mutant hunt with a fixed seed: every broken variant must be caught within the default runs.
  it("catches all six mutants within the default number of runs (seed 1)", async () => {
    const r = await runCliInProcess(["fuzz", "--mutants", "--seed", "1", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { runs: number; mutants: { name: string; caught: boolean; runs: number; invariant: string; path: string }[] };
    expect(doc.mutants.map((m) => m.name).sort()).toEqual([
      "ignore-frame-lease",
      "never-rebuild-session",
      "raw-key-combo",
      "resend-timed-out-click",
      "trust-empty-window-list",
      "unverifiable-is-done",
    ]);
    for (const m of doc.mutants) {
      expect(m.caught, m.name).toBe(true);
      expect(m.runs).toBeLessThanOrEqual(doc.runs);
    }
    const by = Object.fromEntries(doc.mutants.map((m) => [m.name, m.invariant]));
    expect(by["resend-timed-out-click"]).toBe("no-replay-after-unknown");
    expect(by["unverifiable-is-done"]).toBe("unproven-not-done");
    expect(by["ignore-frame-lease"]).toBe("stale-lease-respected");
  });

  it("shrinks a failure, prints the command that reproduces it, and saves it as a scenario the bad harness fails", async () => {
    await using dir = await tmpDir();
    // spawned: the command it prints names how this process was started
    const r = await runCli(["fuzz", "--harness", "unverifiable-is-done", "--seed", "1", "--runs", "20", "--save", dir.path, "--json"]);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      runs: number;
      violations: number;
      failures: { seed: number; path: string; invariant: string; reproduce: string; saved: string }[];
    };
    expect(doc.violations).toBeGreaterThan(0);
    const first = doc.failures[0]!;
    expect(first.invariant).toBe("unproven-not-done");
    // run from the checkout: the bin as invoked, relative to the working directory
    expect(first.reproduce).toBe(`node bin/cua-contract.js fuzz --seed ${first.seed} --runs 1 --path ${first.path} --harness unverifiable-is-done`);

    const again = await runCliInProcess([...first.reproduce.split(" ").slice(2), "--json"]);
    expect(again.exitCode).toBe(1);
    expect(JSON.parse(again.stdout).failures[0].invariant).toBe("unproven-not-done");

    expect(readdirSync(dir.path).length).toBe(doc.failures.length);
    const saved = JSON.parse(readFileSync(first.saved, "utf8")) as { origin: string; expect: { steps: { decision?: string }[] } };
    expect(saved.origin).toContain(first.reproduce);
    expect(saved.expect.steps.some((e) => e.decision === "verify_fresh_state")).toBe(true);
    const bad = await runCliInProcess(["check", "--harness", "unverifiable-is-done", first.saved]);
    expect(bad.exitCode).toBe(1);
    const good = await runCliInProcess(["check", first.saved]);
    expect(good.exitCode, good.stdout).toBe(0);
  });

  it("splits runs into disjoint shards", async () => {
    const runs = await Promise.all(["1/2", "2/2"].map((s) => runCliInProcess(["fuzz", "--seed", "5", "--runs", "9", "--shard", s, "--json"])));
    const [a, b] = runs.map((r) => JSON.parse(r.stdout) as { runs: number; shard: string });
    expect([a!.runs, b!.runs]).toEqual([5, 4]);
    expect(a!.shard).toBe("1/2");
  });

  it("rejects a shard past its count and an unknown harness with exit 2", async () => {
    const shard = await runCliInProcess(["fuzz", "--shard", "3/2"]);
    expect(shard.exitCode).toBe(2);
    expect(shard.stderr).toContain('--shard: bad shard "3/2". Write i/n with 1 ≤ i ≤ n');
    const cassette = await runCliInProcess(["fuzz", "--cassette", path.join("no", "such", "dir")]);
    expect(cassette.exitCode).toBe(2);
    expect(cassette.stderr).toMatch(/no\/such\/dir/);
  });

  it("names the flag and the value for a malformed --path, --runs or --seed, with no stack trace", async () => {
    const cases: [string[], string][] = [
      [
        ["--path", "abc", "--runs", "1", "--seed", "1"],
        "cua-contract: --path must be colon-separated numbers as a failure's reproduce command prints it, got abc.",
      ],
      [["--runs", "abc"], 'cua-contract: --runs must be a number, got "abc".'],
      [["--runs", "0"], "cua-contract: --runs must be a positive integer, got 0."],
      [["--seed", "x1"], 'cua-contract: --seed must be a number, got "x1".'],
      [["--seed", "1.5"], "cua-contract: --seed must be an integer, got 1.5."],
    ];
    for (const [args, message] of cases) {
      const r = await runCliInProcess(["fuzz", ...args]);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
