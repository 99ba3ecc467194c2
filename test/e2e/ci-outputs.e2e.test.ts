import { readFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { CASSETTE, HARNESS, PRESS, TOKEN } from "../helpers/replay-cli-harness.js";
import { repoRoot, runCli } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

interface Case {
  "@_name": string;
  "@_classname": string;
  failure?: { "@_message": string; "@_type": string; "#text"?: string };
}
interface Suite {
  "@_name": string;
  "@_tests": string;
  "@_failures": string;
  testcase?: Case[];
}

/** Parses JUnit XML with a real parser (fails on malformed XML) into its suites. */
function junit(file: string): { tests: number; failures: number; suites: Suite[] } {
  const xml = readFileSync(file, "utf8");
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "testsuite" || name === "testcase" }).parse(xml) as {
    testsuites: { "@_tests": string; "@_failures": string; testsuite: Suite[] };
  };
  return { tests: Number(doc.testsuites["@_tests"]), failures: Number(doc.testsuites["@_failures"]), suites: doc.testsuites.testsuite };
}

describe("replay --junit and --json-out", () => {
  it("writes one test case per served request, failing the unmatched one, and the summary apart from the harness's stdout", async () => {
    await using dir = await tmpDir();
    const xml = path.join(dir.path, "reports/replay.xml");
    const out = path.join(dir.path, "summary.json");
    const steps = [
      { argv: ["call", "get_screen_size"] },
      { argv: ["call", "list_windows"] },
      { argv: ["call", "click", TOKEN] },
      { argv: ["call", "press_key", PRESS.replace("escape", "enter")] },
    ];
    const r = await runCliInProcess(["replay", CASSETTE, "--junit", xml, "--json-out", out, "--", "python3", HARNESS, JSON.stringify(steps)]);
    expect(r.exitCode).toBe(1);
    expect(() => JSON.parse(r.stdout)).not.toThrow(); // stdout is only the harness's line
    const summary = JSON.parse(readFileSync(out, "utf8")) as { served: number; unmatched: number; exitCode: number };
    expect(summary).toMatchObject({ served: 3, unmatched: 1, exitCode: 1 });

    const report = junit(xml);
    const [requests, run] = report.suites;
    expect(requests!["@_name"]).toBe(`replay ${CASSETTE}`);
    expect(requests!.testcase!.map((c) => c["@_name"])).toEqual(["#0 call get_screen_size", "#1 call list_windows", "#2 call click", "#3 call press_key"]);
    expect(requests!.testcase!.length).toBe(summary.served + summary.unmatched);
    const failed = requests!.testcase!.filter((c) => c.failure);
    expect(failed.map((c) => [c["@_name"], c.failure!["@_type"]])).toEqual([["#3 call press_key", "unmatched"]]);
    expect(failed[0]!.failure!["@_message"]).toMatch(/^unmatched: /);
    expect(run!.testcase!.map((c) => c["@_name"])).toEqual(["harness exit"]);
    expect(report.tests).toBe(5);
    expect(report.failures).toBe(1);
  });

  it("a --junit path that is a directory is a usage error naming the flag", async () => {
    await using dir = await tmpDir();
    const r = await runCliInProcess(["replay", CASSETTE, "--junit", dir.path, "--", "true"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--junit: ${dir.path} is a directory. Name a file to write, e.g. --junit ${path.join(dir.path, "out.xml")}`);
  });
});

describe("fuzz --junit, progress and the reproduce line", () => {
  it("writes one test case per run; failing runs carry the checks and a reproduce line", async () => {
    await using dir = await tmpDir();
    const xml = path.join(dir.path, "fuzz.xml");
    const r = await runCliInProcess([
      "fuzz",
      "--harness",
      "resend-timed-out-click",
      "--runs",
      "24",
      "--seed",
      "1",
      "--junit",
      xml,
      "--progress-every",
      "10",
      "--json",
    ]);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout) as { violations: number; failures: { seed: number; reproduce: string }[] };
    const report = junit(xml);
    const cases = report.suites[0]!.testcase!;
    expect(cases.length).toBe(24);
    expect(cases.map((c) => c["@_name"])).toEqual(Array.from({ length: 24 }, (_, k) => `run ${k} (seed ${1 + k})`));
    expect(report.failures).toBe(doc.violations);
    const first = cases.find((c) => c.failure)!;
    expect(first["@_name"]).toBe(`run ${doc.failures[0]!.seed - 1} (seed ${doc.failures[0]!.seed})`);
    expect(first.failure!["#text"]).toContain(`reproduce: ${doc.failures[0]!.reproduce}`);
    // stderr is not a TTY here: a progress line every 10 runs and one at the end
    expect(r.stderr.split("\n").filter((l) => l.startsWith("cua-contract fuzz: "))).toEqual([
      expect.stringMatching(/^cua-contract fuzz: 10\/24 runs, \d+ failing$/),
      expect.stringMatching(/^cua-contract fuzz: 20\/24 runs, \d+ failing$/),
    ]);
  });

  it("prints a reproduce line that runs as printed: this checkout's bin and the --env the harness needed", async () => {
    const example = path.join(repoRoot, "examples/harness-python");
    const cassette = path.join(repoRoot, "contracts/scenarios/cassettes/gtk3demo-click-timeout");
    // the harness refuses to start without HARNESS_READY; --env gives it
    const cmd = 'test "$HARNESS_READY" = yes && python3 harness_buggy.py';
    const r = await runCli(
      ["fuzz", "--cmd", cmd, "--cassette", cassette, "--seed", "103", "--runs", "1", "--path", "0:0:2", "--env", "HARNESS_READY=yes", "--json"],
      { cwd: example },
    );
    expect(r.exitCode, r.stderr).toBe(1);
    const failure = (JSON.parse(r.stdout) as { failures: { invariant: string; reproduce: string }[] }).failures[0]!;
    expect(failure.invariant).toBe("no-replay-after-unknown");
    expect(failure.reproduce).toMatch(
      /^node \.\.\/\.\.\/bin\/cua-contract\.js fuzz --seed 103 --runs 1 --path 0:0:2 --cmd '.*' --cassette \S+ --env HARNESS_READY=yes$/,
    );
    const env = { ...process.env };
    delete env.HARNESS_READY;
    const again = await execa("sh", ["-c", `${failure.reproduce} --json`], { cwd: example, env, extendEnv: false, reject: false });
    expect(again.exitCode, again.stderr).toBe(1);
    expect((JSON.parse(again.stdout) as { failures: { invariant: string }[] }).failures[0]!.invariant).toBe("no-replay-after-unknown");
  });

  it("--mutants --junit: one test case per mutant", { timeout: 120_000 }, async () => {
    await using dir = await tmpDir();
    const xml = path.join(dir.path, "mutants.xml");
    const r = await runCliInProcess(["fuzz", "--mutants", "--seed", "1", "--junit", xml, "--json"]);
    const doc = JSON.parse(r.stdout) as { mutants: { name: string; caught: boolean }[] };
    const cases = junit(xml).suites[0]!.testcase!;
    expect(cases.map((c) => c["@_name"])).toEqual(doc.mutants.map((m) => m.name));
    expect(cases.filter((c) => c.failure).map((c) => c["@_name"])).toEqual(doc.mutants.filter((m) => !m.caught).map((m) => m.name));
    expect(r.exitCode).toBe(doc.mutants.every((m) => m.caught) ? 0 : 1);
    // a CI log gets a line per mutant as each hunt ends
    expect(r.stderr.split("\n").filter((l) => l.startsWith("cua-contract fuzz: "))).toEqual(
      doc.mutants.map((m) => expect.stringMatching(new RegExp(`^cua-contract fuzz: ${m.name}: (caught after \\d+ runs|not caught)$`))),
    );
  });

  it("rejects an --env without a name", async () => {
    const r = await runCliInProcess(["fuzz", "--runs", "1", "--env", "=x"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--env takes KEY=VALUE, got "=x". Pass e.g. --env HARNESS_MODE=strict (repeatable).');
  });
});

describe("check progress on a non-TTY", () => {
  it("prints a progress line to stderr every N scenarios, leaving --json stdout one document", async () => {
    await using dir = await tmpDir();
    const xml = path.join(dir.path, "check.xml");
    const r = await runCliInProcess(["check", "--json", "--progress-every", "5", "--junit", xml]);
    const doc = JSON.parse(r.stdout) as { scenarios: unknown[]; failed: number };
    const total = doc.scenarios.length;
    const expected = Array.from({ length: Math.floor(total / 5) }, (_, i) =>
      expect.stringMatching(new RegExp(`^cua-contract check: ${(i + 1) * 5}/${total} scenarios, \\d+ failing$`)),
    );
    expect(r.stderr.split("\n").filter((l) => /^cua-contract check: \d+\//.test(l))).toEqual(expected);
    expect(r.stderr).toContain(`cua-contract check: JUnit XML written to ${xml}`);
    expect(junit(xml).suites[0]!.testcase!.length).toBe(total);
  });
});

describe("the tool's invocation in printed commands", () => {
  it("is `npx cua-contract` under npx, `cua-contract` when PATH has this bin, else node and the path", async () => {
    await using dir = await tmpDir();
    const { toolInvocation } = await import("#src/cli/invocation.js");
    const bin = path.join(repoRoot, "bin/cua-contract.js");
    const installed = path.join(repoRoot, "node_modules/cua-contract/bin/cua-contract.js");
    expect(toolInvocation({ script: installed, env: { npm_command: "exec" }, cwd: repoRoot })).toBe("npx cua-contract");
    expect(toolInvocation({ script: bin, env: { npm_command: "exec", PATH: "/nowhere" }, cwd: repoRoot })).toBe("node bin/cua-contract.js"); // npx set by a parent
    expect(toolInvocation({ script: bin, env: { PATH: "/nowhere" }, cwd: repoRoot })).toBe("node bin/cua-contract.js");
    // three folders down a fresh temp dir: more than two `..` from wherever the checkout is (a clone in /tmp too)
    const far = path.join(dir.path, "a", "b", "c");
    expect(toolInvocation({ script: bin, env: { PATH: "/nowhere" }, cwd: far })).toBe(`node ${bin}`);
    expect(toolInvocation({ script: bin, env: { PATH: "/nowhere" }, cwd: path.join(repoRoot, "examples/harness-python") })).toBe(
      "node ../../bin/cua-contract.js",
    );
    const { symlinkSync } = await import("node:fs");
    symlinkSync(bin, path.join(dir.path, "cua-contract"));
    expect(toolInvocation({ script: bin, env: { PATH: `/nowhere:${dir.path}` }, cwd: dir.path })).toBe("cua-contract");
  });
});
