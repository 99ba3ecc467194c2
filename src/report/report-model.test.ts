import { describe, expect, it } from "vitest";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { reportModel } from "./report-model.js";

const request = (n: number, outcome: "replayed" | "unmatched"): ReplayLogEntry =>
  ({
    type: "request",
    n,
    t_ms: n,
    transport: "cli",
    method: "call",
    tool: "get_screen_size",
    args: {},
    kind: "read",
    epoch_before: 0,
    epoch_after: 0,
    outcome,
    ...(outcome === "replayed" ? { matched_seq: 1 } : {}),
    result: { exit_code: 0 },
    duration_ms: 1,
  }) as ReplayLogEntry;

const summary = (unmatched: number): ReplayLogEntry => ({
  type: "summary",
  t_ms: 9,
  served: 1,
  unmatched,
  faults: 0,
  unused: [
    { seq: 3, tool: "click", kind: "mutation" },
    { seq: 5, tool: "list_windows", kind: "read" },
  ],
});

const model = (entries: ReplayLogEntry[]) => reportModel({ input: { kind: "replay-log", file: "run.jsonl", entries } });

describe("reportModel of a replay log", () => {
  it("notes unused recorded mutations without failing a replay that passed (replay exits 0 for them by default)", async () => {
    const m = await model([request(0, "replayed"), summary(0)]);
    expect(m.sections[0]).toMatchObject({ passed: true, problems: [] });
    expect(m.notes).toEqual(["1 recorded mutation(s) never replayed: seq 3 (click). Replay fails on these only with --fail-on-unused."]);
  });

  it("fails on an unmatched request and links it", async () => {
    const m = await model([request(0, "unmatched"), summary(1)]);
    expect(m.sections[0]!.passed).toBe(false);
    expect(m.sections[0]!.problems).toMatchObject([{ kind: "unmatched", links: [{ row: "call-0", label: "#0" }] }]);
  });
});
