import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const SNAPSHOT = "recordings/probe-sdk-0.21.0.json";
const CONTRACT = "contracts/drivers/cua-driver-0.21.json";

/** Bad input exits 2 with one message line (plus, for usage errors, one `Run … --help` line) and no stack. */
async function badInput(args: string[]): Promise<string[]> {
  const r = await runCliInProcess(args);
  const lines = String(r.stderr).trimEnd().split("\n");
  expect({ exit: r.exitCode, stdout: String(r.stdout), stack: lines.filter((l) => /^\s+at /.test(l)) }).toEqual({ exit: 2, stdout: "", stack: [] });
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^cua-contract: /);
  return lines;
}

describe("CLI usage errors", () => {
  it("names an unknown command, with a suggestion when one is close", async () => {
    expect((await badInput(["bogus"]))[0]).toBe(
      "cua-contract: Unknown command: bogus. Commands: import, report, probe, diff, contract, gate, desktop, record, inspect, check, fuzz, merge-reports, replay, serve, verify, cassette.",
    );
    expect((await badInput(["chek"]))[0]).toBe("cua-contract: Unknown command: chek. Did you mean check?");
  });

  it("puts an invalid choice on one line and points at the command's own help", async () => {
    expect(await badInput(["import", "x", "--out", "y", "--driver-source", "synthetic"])).toEqual([
      'cua-contract: driver-source: "synthetic" is not a valid value; choose one of "binary", "sdk".',
      "Run `cua-contract import --help` for usage.",
    ]);
    expect(await badInput(["contract", "bogus"])).toEqual([
      'cua-contract: action: "bogus" is not a valid value; choose one of "init".',
      "Run `cua-contract contract --help` for usage.",
    ]);
  });

  it("names a missing option and missing positionals", async () => {
    expect((await badInput(["gate"]))[0]).toBe("cua-contract: Missing required option: --contract.");
    expect((await badInput(["diff", "a"]))[0]).toBe("cua-contract: Missing B: run it as `cua-contract diff A B`.");
    expect((await badInput(["inspect"]))[0]).toBe("cua-contract: Missing DIR: run it as `cua-contract inspect DIR`.");
    expect((await badInput(["inspect", "a", "b"]))[0]).toBe("cua-contract: Unexpected argument b.");
    expect((await badInput(["contract", "init"]))[0]).toMatch(
      /^cua-contract: --from: contract init needs a probe snapshot to start from\. Pass --from SNAPSHOT/,
    );
  });
});

describe("mistyped flags and numbers", () => {
  it("names the unknown flag first, with the nearest known one, before any option it made look missing", async () => {
    expect(await badInput(["record", "--ot", "x", "--", "true"])).toEqual([
      "cua-contract: Unknown option --ot (did you mean --out?).",
      "Run `cua-contract record --help` for usage.",
    ]);
    expect((await badInput(["check", "--harnes", "x"]))[0]).toBe("cua-contract: Unknown option --harnes (did you mean --harness?).");
    expect((await badInput(["serve", "--transport", "mcp", "--prot=3", "--zzzzzz"]))[0]).toBe(
      "cua-contract: Unknown options --prot (did you mean --port?), --zzzzzz.",
    );
    expect((await badInput(["--verison"]))[0]).toBe("cua-contract: Unknown option --verison (did you mean --version?).");
  });

  it("a flag after `--` belongs to the harness, and --no-X of a boolean is known", async () => {
    const r = await runCliInProcess(["record", "--out", "x", "--no-probe", "--no-redact", "--", "true", "--ot"]);
    expect(String(r.stderr)).not.toMatch(/Unknown option/);
  });

  it("a number option given text names the option and the text once", async () => {
    expect((await badInput(["replay", "x", "--seed", "abc", "--", "true"]))[0]).toBe('cua-contract: --seed must be a number, got "abc".');
    expect((await badInput(["serve", "x", "--transport", "http", "--port=eighty"]))[0]).toBe('cua-contract: --port must be a number, got "eighty".');
  });
});

describe("wrong-kind inputs", () => {
  it("check names a cassette, a trajectory or a check result given as a scenario, and which command takes it", async () => {
    expect((await badInput(["check", "recordings/gtk3-demo-mcp"]))[0]).toBe(
      'cua-contract: recordings/gtk3-demo-mcp: this is a cassette (the folder `record --out` writes), not a scenario contract: `cua-contract replay`, `serve`, `inspect` and `report` read it; a scenario names it in its "cassette" field. `cua-contract check` takes scenario files (contracts/scenarios/*.json, docs/scenarios.md) or folders of them.',
    );
    expect((await badInput(["check", "test/fixtures/trajectories/gtk3-demo-0.21.0"]))[0]).toMatch(
      /this is a cua-driver trajectory folder \(turn-NNNNN\/\), not a scenario contract: `cua-contract import` turns it into a cassette\./,
    );
    await using dir = await tmpDir();
    const result = path.join(dir.path, "check.json");
    await writeFile(result, (await runCliInProcess(["check", "contracts/scenarios/click-confirmed.json", "--json"])).stdout);
    expect((await badInput(["check", result]))[0]).toMatch(
      /: this is a check result \(written by `check --json`\), not a scenario contract: `cua-contract report .*check\.json` reads it\./,
    );
  });

  it("a replay log or a check result where a cassette goes says what it is and which command reads it", async () => {
    await using dir = await tmpDir();
    const log = path.join(dir.path, "replay.jsonl");
    await runCliInProcess(["replay", "test/fixtures/cassettes/replay-cli-gtk", "--log", log, "--", "sh", "-c", "cua-driver call get_screen_size </dev/null"]);
    for (const command of [
      ["replay", log, "--", "true"],
      ["inspect", log],
      ["serve", log, "--transport", "mcp"],
    ]) {
      expect((await badInput(command))[0]).toBe(
        `cua-contract: ${log}: this is a replay log (written by \`replay --log\`), not a cassette: \`cua-contract report ${log} --cassette DIR\` reads it. Where a cassette goes, pass the directory that \`cua-contract record --out DIR\` wrote (it holds cassette.jsonl).`,
      );
    }
    expect((await badInput(["inspect", "recordings/gtk3-demo-cli/cassette.jsonl"]))[0]).toMatch(
      /this is the event file inside a cassette, not a cassette: pass its folder, recordings\/gtk3-demo-cli, instead\./,
    );
  });

  it("a harness script that does not exist is bad input (exit 2), not a failing harness", async () => {
    expect((await badInput(["check", "--cmd", "python3 nosuch.py", "contracts/scenarios/click-confirmed.json"]))[0]).toMatch(
      /^cua-contract: --cmd: the harness script "nosuch\.py" does not exist \(.*nosuch\.py\)\. Check the path/,
    );
    expect((await badInput(["fuzz", "--cmd", "node missing/harness.mjs", "--runs", "1"]))[0]).toMatch(
      /the harness script "missing\/harness\.mjs" does not exist/,
    );
  });

  it("a fault plan's trailing comma names its line; bytes that are not UTF-8 name the offset", async () => {
    await using dir = await tmpDir();
    const plan = path.join(dir.path, "plan.json");
    await writeFile(plan, '{ "rules": [\n  { "match": {}, "fault": { "kind": "empty" } },\n] }\n');
    const replay = ["replay", "test/fixtures/cassettes/replay-cli-gtk", "--faults", plan, "--", "true"];
    expect((await badInput(replay))[0]).toMatch(new RegExp(`^cua-contract: ${plan}:3: fault plan is not valid JSON`));
    await writeFile(
      plan,
      Buffer.concat([Buffer.from('{ "rules": [\n  { "match": { "tool": "caf'), Buffer.from([0xe9]), Buffer.from('" }, "fault": { "kind": "empty" } }] }')]),
    );
    expect((await badInput(replay))[0]).toBe(`cua-contract: ${plan}:2: fault plan is not valid UTF-8 (byte offset 40: 0xe9). Save the plan as UTF-8 JSON.`);
  });
});

describe("help", () => {
  it("every command has a description and every option says what it does; numbers are typed as numbers", async () => {
    const top = String((await runCliInProcess(["--help"])).stdout);
    const names = [...top.matchAll(/^ {2}cua-contract (\w+)/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const name of names) {
      const help = String((await runCliInProcess([name, "--help"])).stdout);
      const description = (/^(?:.*\n)+?\n(.+)\n/.exec(help)?.[1] ?? "").trim();
      if (!description || /^(Positionals|Options):/.test(description)) missing.push(`${name}: no description`);
      for (const line of help.split("\n").filter((l) => /^ {2}(-\w, )?--[a-z-]+ {2,}\[/.test(l)))
        missing.push(`${name}: ${line.trim().split(/\s/)[0]} has no description`);
    }
    expect(missing).toEqual([]);
    const fuzz = String((await runCliInProcess(["fuzz", "--help"])).stdout);
    expect(fuzz).toMatch(/--runs .*\[number\] \[default: 500\]/);
    expect(fuzz).toMatch(/--seed .*\[number\]/);
    expect(String((await runCliInProcess(["record", "--help"])).stdout)).toContain("Run a harness with a recording cua-driver shim first on PATH");
  });
});

describe("output files", () => {
  it("probe --save, probe --junit and report --out name the flag when the path is a directory", async () => {
    await using dir = await tmpDir();
    expect((await badInput(["probe", "--from", SNAPSHOT, "--save", dir.path]))[0]).toBe(
      `cua-contract: --save: ${dir.path} is a directory. Name a file to write, e.g. --save ${path.join(dir.path, "out.json")}.`,
    );
    expect((await badInput(["probe", "--from", SNAPSHOT, "--contract", CONTRACT, "--junit", dir.path]))[0]).toMatch(
      /^cua-contract: --junit: .* is a directory\./,
    );
    await mkdir(path.join(dir.path, "r.html"));
    expect((await badInput(["report", "recordings/gtk3-demo-cli", "--out", path.join(dir.path, "r.html")]))[0]).toMatch(
      /^cua-contract: --out: .*r\.html is a directory\./,
    );
  });

  it("creates the folder of probe --save and --junit, and writes what it says", async () => {
    await using dir = await tmpDir();
    const save = path.join(dir.path, "new", "snap.json");
    const junit = path.join(dir.path, "new", "probe.xml");
    const r = await runCliInProcess(["probe", "--from", SNAPSHOT, "--contract", CONTRACT, "--save", save, "--junit", junit]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(await readFile(save, "utf8"))).toEqual(JSON.parse(await readFile(SNAPSHOT, "utf8")));
    expect(await readFile(junit, "utf8")).toMatch(/<testsuites name="cua-contract probe" tests="\d+" failures="0"/);
  });

  it("a path under a file names that file instead of a stack trace", async () => {
    await using dir = await tmpDir();
    const file = path.join(dir.path, "plain.json");
    await writeFile(file, "{}");
    expect((await badInput(["probe", "--from", SNAPSHOT, "--save", path.join(file, "x.json")]))[0]).toBe(
      `cua-contract: --save: cannot write ${path.join(file, "x.json")}: ${file} already exists and is in the way (mkdir). Choose another path, or move the existing one aside.`,
    );
  });

  it("check --junit and --report say on stderr which files they wrote", async () => {
    await using dir = await tmpDir();
    const junit = path.join(dir.path, "out", "check.xml");
    const report = path.join(dir.path, "check.html");
    const r = await runCliInProcess(["check", "contracts/scenarios/click-confirmed.json", "--junit", junit, "--report", report]);
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toBe(`cua-contract check: JUnit XML written to ${junit}\ncua-contract check: HTML report written to ${report}`);
    expect(await readFile(junit, "utf8")).toContain("<testsuites");
    expect(await readFile(report, "utf8")).toMatch(/^<!doctype html>/i);
  });

  it("probe --junit without --contract is refused before probing", async () => {
    expect((await badInput(["probe", "--from", SNAPSHOT, "--junit", "x.xml"]))[0]).toBe(
      "cua-contract: --junit: JUnit output has one test case per contract item, and no --contract was given. Add --contract FILE (e.g. contracts/drivers/cua-driver-0.21.json), or drop --junit.",
    );
  });
});

describe("bad input files", () => {
  it("a contract with a syntax error names its line; one whose baseline is missing names the field", async () => {
    await using dir = await tmpDir();
    const text = await readFile(CONTRACT, "utf8");
    const broken = path.join(dir.path, "broken.json");
    // Drop the comma after the first readOnlyHint: JSON.parse reports no position for some such errors.
    const at = text.indexOf('"readOnlyHint": true,');
    await writeFile(broken, `${text.slice(0, at)}"readOnlyHint": true${text.slice(at + '"readOnlyHint": true,'.length)}`);
    const line = text.slice(0, at).split("\n").length + 1;
    expect((await badInput(["probe", "--from", SNAPSHOT, "--contract", broken]))[0]).toMatch(
      new RegExp(`^cua-contract: ${broken}:${line}: driver contract is not valid JSON`),
    );
    const noBaseline = path.join(dir.path, "c.json");
    await writeFile(noBaseline, JSON.stringify({ ...JSON.parse(text), baseline: "nope.json" }));
    expect((await badInput(["gate", "--contract", noBaseline, "--sdk", "0.21.0"]))[0]).toBe(
      `cua-contract: ${noBaseline}: baseline: the baseline snapshot "nope.json" (${path.join(dir.path, "nope.json")}) does not exist. Point baseline at a probe snapshot (relative to the contract file), e.g. one written by \`cua-contract probe --sdk VERSION --save FILE\`, or remove the field.`,
    );
  });

  it("report names what a random JSON file and a cassette's own jsonl are, and the line of a syntax error", async () => {
    await using dir = await tmpDir();
    const random = path.join(dir.path, "random.json");
    await writeFile(random, JSON.stringify({ a: 1 }));
    expect((await badInput(["report", random, "--out", path.join(dir.path, "r.html")]))[0]).toBe(
      `cua-contract: ${random}: neither a cassette, a replay log nor a check result (a JSON object with keys "a"; a check result has "scenarios", a replay log one {"type": …} entry per line). Pass a cassette directory, a replay log (.jsonl, one entry per line) or a check result (.json from \`check --json\`).`,
    );
    expect((await badInput(["report", "recordings/gtk3-demo-cli/cassette.jsonl", "--out", path.join(dir.path, "r.html")]))[0]).toBe(
      "cua-contract: recordings/gtk3-demo-cli/cassette.jsonl: this is a cassette's event file. Pass the cassette directory instead: cua-contract report recordings/gtk3-demo-cli --out FILE.html.",
    );
    const torn = path.join(dir.path, "check.json");
    await writeFile(torn, '{\n  "scenarios": [\n,]}\n');
    expect((await badInput(["report", torn, "--out", path.join(dir.path, "r.html")]))[0]).toMatch(
      new RegExp(`^cua-contract: ${torn}:3: neither a replay log nor a check result \\(not JSON\\)`),
    );
  });

  it("import refuses an --out that is a file or already holds a cassette, naming --force (it has no --append)", async () => {
    await using dir = await tmpDir();
    const trajectory = "test/fixtures/trajectories/gtk3-demo-0.21.0";
    const file = path.join(dir.path, "plain.txt");
    await writeFile(file, "x");
    expect((await badInput(["import", trajectory, "--out", file]))[0]).toBe(
      `cua-contract: --out: ${file} is a file. Name a new folder for the cassette (import writes cassette.jsonl and frames/ into it).`,
    );
    expect((await badInput(["import", file, "--out", path.join(dir.path, "c")]))[0]).toMatch(/is a file, not a trajectory folder/);
    const out = path.join(dir.path, "cassette");
    expect((await runCliInProcess(["import", trajectory, "--out", out])).exitCode).toBe(0);
    expect((await badInput(["import", trajectory, "--out", out]))[0]).toBe(
      `cua-contract: --out: ${out} already holds a cassette. Pass --force to replace it, or choose another --out folder.`,
    );
    expect((await runCliInProcess(["import", trajectory, "--out", out, "--force"])).exitCode).toBe(0);
  });

  it("report refuses a --cassette other than the one the log replayed (its screenshots would sit beside other calls)", async () => {
    await using dir = await tmpDir();
    const log = path.join(dir.path, "replay.jsonl");
    const run = await runCliInProcess([
      "replay",
      "test/fixtures/cassettes/replay-cli-gtk",
      "--log",
      log,
      "--",
      "sh",
      "-c",
      "cua-driver call get_screen_size </dev/null",
    ]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const out = path.join(dir.path, "r.html");
    expect((await runCliInProcess(["report", log, "--cassette", "test/fixtures/cassettes/replay-cli-gtk", "--out", out])).exitCode).toBe(0);
    expect((await badInput(["report", log, "--cassette", "test/fixtures/cassettes/replay-mcp-gtk", "--out", out]))[0]).toBe(
      `cua-contract: --cassette: this log was not replayed from test/fixtures/cassettes/replay-mcp-gtk: request #0 (get_screen_size) was answered by event 1, which there is not a tool call (mcp). Pass the cassette that \`cua-contract replay DIR --log ${log}\` replayed, or drop --cassette.`,
    );
  });
});

describe("replay output files are checked before the harness runs", () => {
  it("a --log that is a directory names --log, and the harness never starts", async () => {
    await using dir = await tmpDir();
    const marker = path.join(dir.path, "ran");
    const lines = await badInput(["replay", "test/fixtures/cassettes/replay-cli-gtk", "--log", dir.path, "--", "sh", "-c", `touch ${marker}`]);
    expect(lines[0]).toBe(`cua-contract: --log: the replay log ${dir.path} is a directory. Name a file in an existing folder, e.g. --log replay.jsonl.`);
    await expect(readFile(marker)).rejects.toThrow();
  });
});

describe("serve checks its settings before it opens the cassette", () => {
  it("a bad --port is the only line printed", async () => {
    const r = await runCliInProcess(["serve", "recordings/gtk3-demo-cli", "--transport", "http", "--port", "99999"], {
      env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: "t".repeat(40) },
    });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr).trimEnd().split("\n")).toEqual([
      "cua-contract: --port: no valid HTTP port (got 99999). Pass --port N (0 picks a free one) or set CUA_DRIVER_RS_MCP_HTTP_PORT=1..65535, as for `cua-driver serve`.",
    ]);
  });
});
