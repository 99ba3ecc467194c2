// Re-recording gives gtk3-demo a new pid and window id; `npm run record:fixtures` carries them
// into the scenarios that replay the recording (scripts/record-fixtures.ids.mjs). Simulated here
// on copies: the bundled recording with other ids, and the real scenarios beside it.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

type Call = { tool: string; args: Record<string, unknown> };
const ids = (await import(pathToFileURL(path.join(repoRoot, "scripts/record-fixtures.ids.mjs")).href)) as {
  harnessCalls(text: string): Call[];
  idChanges(before: Call[], after: Call[]): { changes?: Map<string, unknown>; problem?: string };
  updateScenarios(o: { dir: string; cassetteDir: string; changes: Map<string, unknown> }): string[];
};

const recording = path.join(repoRoot, "recordings/gtk3-demo-mcp");
const scenarios = path.join(repoRoot, "contracts/scenarios");
const cassetteText = readFileSync(path.join(recording, "cassette.jsonl"), "utf8");
const first = ids.harnessCalls(cassetteText).find((c) => c.tool === "get_window_state")!.args as { pid: number; window_id: number };

describe("carrying a re-recording's ids into the real scenarios", () => {
  it("the bundled scenarios name the recording's own ids (nothing to carry)", () => {
    const calls = ids.harnessCalls(cassetteText);
    expect(calls[0]).toEqual({ tool: "start_session", args: { session: "fixture-harness" } });
    expect(ids.idChanges(calls, calls)).toEqual({ changes: new Map() });
  });

  it("rewrites every scenario replaying the recording, and check passes on the new ids (it fails before)", async () => {
    await using dir = await tmpDir();
    // Same-length ids, so the frames cut out of the lines keep their offsets.
    const pid = String(first.pid).replace(/^./, (d) => String((Number(d) % 9) + 1));
    const win = String(first.window_id).replace(/^./, (d) => String((Number(d) % 9) + 1));
    const copy = path.join(dir.path, "recordings/gtk3-demo-mcp");
    cpSync(recording, copy, { recursive: true });
    const moved = cassetteText.replaceAll(String(first.pid), pid).replaceAll(String(first.window_id), win);
    writeFileSync(path.join(copy, "cassette.jsonl"), moved);
    const scenarioDir = path.join(dir.path, "contracts/scenarios");
    mkdirSync(scenarioDir, { recursive: true });
    const real = readdirSync(scenarios).filter(
      (f) => f.endsWith(".json") && readFileSync(path.join(scenarios, f), "utf8").includes('"../../recordings/gtk3-demo-mcp"'),
    );
    for (const f of real) cpSync(path.join(scenarios, f), path.join(scenarioDir, f));
    // every bundled scenario but the three on hand-built cassettes replays the recording
    expect(real.length).toBe(readdirSync(scenarios).filter((f) => f.endsWith(".json")).length - 3);
    expect(real.length).toBeGreaterThanOrEqual(14);

    const stale = await runCliInProcess(["check", scenarioDir, "--json"]);
    expect(stale.exitCode).toBe(1);

    const { changes, problem } = ids.idChanges(ids.harnessCalls(cassetteText), ids.harnessCalls(moved));
    expect(problem).toBeUndefined();
    expect([...changes!]).toEqual([
      [String(first.pid), Number(pid)],
      [String(first.window_id), Number(win)],
    ]);
    const changed = ids.updateScenarios({ dir: scenarioDir, cassetteDir: copy, changes: changes! });
    expect(changed.map((f) => path.basename(f)).sort()).toEqual(real.sort());
    const fresh = await runCliInProcess(["check", scenarioDir, "--json"]);
    expect(fresh.exitCode, fresh.stdout).toBe(0);
    expect((JSON.parse(fresh.stdout) as { passed: number }).passed).toBe(real.length);
  });

  it("a changed flow is reported, not guessed", () => {
    const calls = ids.harnessCalls(cassetteText);
    expect(ids.idChanges(calls, calls.slice(1)).problem).toMatch(/^the recorded flow changed/);
  });
});
