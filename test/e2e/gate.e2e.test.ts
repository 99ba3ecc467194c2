import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { sdkUnavailable } from "../helpers/sdk-available.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const contract = "contracts/drivers/cua-driver-0.21.json";
const recordings = "test/fixtures/recordings-synthetic";
const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const screenshotId = `recording:${recordings}/mcp-session#5:screenshot:tool:$`;

// The real published runtime: installed once into the private cache; skipped only without a registry.
const skip028 = await sdkUnavailable("0.28.2");
if (skip028) console.warn(skip028);

describe.skipIf(Boolean(skip028))("gate --sdk 0.28.2 (the real published runtime)", () => {
  it("fails the 0.21 contract and lists the recorded calls that would break", { timeout: 60_000 }, async () => {
    await using dir = await tmpDir();
    const junit = path.join(dir.path, "gate.xml");
    const r = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.28.2", "--recordings", recordings, "--json", "--junit", junit]);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(String(r.stdout));
    expect(doc).toMatchObject({ ok: false, version: "0.28.2", reachable: true });
    expect(doc.gaps.filter((g: any) => g.blocking).map((g: any) => g.message)).toEqual([
      "get_window_state: idempotentHint changed true → false (was relied on as repeatable)",
      "driver contract version is 0.8.0, the contract expects 0.7.0",
    ]);
    expect(doc.recordings).toMatchObject({ cassettes: [`${recordings}/cli-session`, `${recordings}/mcp-session`], calls: 7 });
    expect(doc.recordings.breaks).toEqual([
      expect.objectContaining({
        tool: "click",
        cassette: `${recordings}/cli-session`,
        event: 2,
        part: "input",
        path: "$.target",
        reason: "must be object; must match exactly one schema in oneOf",
      }),
      expect.objectContaining({
        tool: "screenshot",
        cassette: `${recordings}/mcp-session`,
        event: 5,
        part: "tool",
        reason: "tool screenshot is not in the candidate's tools/list",
      }),
    ]);
    expect(doc.unexpected.map((f: any) => f.id)).toContain("diff:alternative_removed:click:/inputSchema/properties/target/anyOf/1");
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain('<testsuite name="recordings" tests="7" failures="2"');
    expect(xml).toMatch(/<testsuite name="contract" tests="\d+" failures="2"/);
    expect(xml).toContain('<testcase name="annotation get_window_state:idempotentHint" classname="contract.annotation">');
    expect(xml).toContain('<failure message="get_window_state: idempotentHint changed true → false (was relied on as repeatable)" type="annotation">');
  });
});

describe("gate --sdk 0.21.0 and --driver", () => {
  it("passes when the only failure is listed as expected, and fails when the baseline is stale", async () => {
    await using dir = await tmpDir();
    const baseline = path.join(dir.path, "expected.json");
    const first = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.21.0", "--recordings", recordings, "--save-expected-failures", baseline]);
    expect(first.exitCode).toBe(1);
    expect(first.stdout).toContain(
      `FAIL     ${recordings}/mcp-session event 5 (screenshot): tool screenshot is not in the candidate's tools/list  [${screenshotId}]`,
    );
    const saved = JSON.parse(await readFile(baseline, "utf8"));
    expect(saved.failures.map((f: any) => f.id)).toEqual([screenshotId]);

    const second = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.21.0", "--recordings", recordings, "--expected-failures", baseline]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain("expected failures (listed in");

    saved.failures.push({ id: "contract:tool:invoke_menu" });
    await writeFile(baseline, JSON.stringify(saved));
    const stale = await runCliInProcess([
      "gate",
      "--contract",
      contract,
      "--sdk",
      "0.21.0",
      "--recordings",
      recordings,
      "--expected-failures",
      baseline,
      "--json",
    ]);
    expect(stale.exitCode).toBe(1);
    expect(JSON.parse(String(stale.stdout))).toMatchObject({ ok: false, unexpected: [], stale: ["contract:tool:invoke_menu"] });
  });

  it("gates the fake 0.21.0 binary: CLI argv checked, diffed against the contract's baseline", async () => {
    const r = await runCliInProcess(["gate", "--contract", contract, "--driver", fake, "--json", "--timeout-ms", "30000"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.ok).toBe(true);
    expect(doc.diff.baseline).toBe("contracts/drivers/cua-driver-0.21.0.probe.json.gz");
    // The binary's tools/list also carries the CLI-host tool the runtime does not register.
    expect(doc.diff.changes.map((c: any) => c.message)).toEqual(["check_for_update: tool is new"]);
  });

  it("rejects bad input with exit 2 naming the flag or file", async () => {
    const noRec = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.21.0", "--recordings", "docs"]);
    expect(noRec.exitCode).toBe(2);
    expect(noRec.stderr).toContain("--recordings: no cassette under docs.");
    await using dir = await tmpDir();
    const bad = path.join(dir.path, "expected.json");
    await writeFile(bad, JSON.stringify({ format: "cua-expected-failures", version: 1, failures: [{ reason: "x" }] }, null, 2));
    const badBaseline = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.21.0", "--expected-failures", bad]);
    expect(badBaseline.exitCode).toBe(2);
    // line 5: the failures[0] object that lacks "id"
    expect(badBaseline.stderr).toContain(`${bad}:5: failures.0.id: expected-failures file is invalid`);
  });

  it("names a torn last line it dropped from a recording, so the unchecked call is not silently missing", async () => {
    await using dir = await tmpDir();
    const copy = path.join(dir.path, "cli-session");
    await cp(`${recordings}/cli-session`, copy, { recursive: true });
    const file = path.join(copy, "cassette.jsonl");
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    await writeFile(file, `${lines.slice(0, -1).join("\n")}\n${lines.at(-1)!.slice(0, 20)}`);
    const r = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.21.0", "--recordings", copy, "--json"]);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.recordings.calls).toBe(3);
    expect(doc.recordings.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${file}:${lines.length}: torn last line \\(20 characters, not valid JSON\\) ignored`)),
    ]);
    const text = await runCliInProcess(["gate", "--contract", contract, "--sdk", "0.21.0", "--recordings", copy]);
    expect(text.stdout).toContain(`  note     ${file}:${lines.length}: torn last line (20 characters`);
  });
});
