import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readTrajectory } from "./read-trajectory.js";

const real = path.join(import.meta.dirname, "../../test/fixtures/trajectories/gtk3-demo-0.21.0");
const made: string[] = [];

// A private copy of the real trajectory's first two turns, to damage one way per test.
function copy(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cua-trajectory-"));
  made.push(dir);
  for (const turn of ["turn-00001", "turn-00002"]) cpSync(path.join(real, turn), path.join(dir, turn), { recursive: true });
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("readTrajectory", () => {
  it("reads the real trajectory: five turns, each with both sides", async () => {
    const t = await readTrajectory({ dir: real });
    expect(t.turns.map((x) => [x.name, x.action.tool])).toEqual([
      ["turn-00001", "click"],
      ["turn-00002", "press_key"],
      ["turn-00003", "scroll"],
      ["turn-00004", "press_key"],
      ["turn-00005", "type_text"],
    ]);
    expect(t.turns.every((x) => x.before.state && x.before.png && x.after.state && x.after.png)).toBe(true);
  });

  it("refuses a capture evidence.json calls captured when its file is missing", async () => {
    const dir = copy();
    unlinkSync(path.join(dir, "turn-00002", "before.png"));
    await expect(readTrajectory({ dir })).rejects.toThrow(
      /turn-00002\/before\.png: turn-00002: evidence\.json says the screenshot was captured, but before\.png is missing/,
    );
  });

  it("accepts a missing capture that evidence.json classifies as not captured", async () => {
    const dir = copy();
    unlinkSync(path.join(dir, "turn-00002", "after.png"));
    writeFileSync(
      path.join(dir, "turn-00002", "evidence.json"),
      JSON.stringify({ after: { screenshot: { status: "unavailable", classification: "capture_failed" }, state: { status: "captured" } } }),
    );
    const t = await readTrajectory({ dir });
    expect(t.turns[1]!.after.png).toBeUndefined();
    expect(t.turns[1]!.after.state).toMatchObject({ element_count: 159, pid: 16165, window_id: 4194311 });
  });

  it("names the field when action.json lacks one", async () => {
    const dir = copy();
    writeFileSync(path.join(dir, "turn-00001", "action.json"), JSON.stringify({ tool: "click", arguments: {}, result_error: false }));
    await expect(readTrajectory({ dir })).rejects.toThrow(/turn-00001\/action\.json: result_summary: turn-00001: action\.json is not what cua-driver writes/);
  });

  it("names the file when a state file is torn", async () => {
    const dir = copy();
    writeFileSync(path.join(dir, "turn-00002", "after_state.json"), '{"element_count": 3, "pid"');
    await expect(readTrajectory({ dir })).rejects.toThrow(/turn-00002\/after_state\.json: turn-00002: after_state\.json is not valid JSON/);
  });

  it("refuses numbering that does not start at 1", async () => {
    const dir = copy();
    rmSync(path.join(dir, "turn-00001"), { recursive: true });
    await expect(readTrajectory({ dir })).rejects.toThrow(/turn-00002: turn numbers have a gap: turn-00001 is missing before turn-00002/);
  });
});
