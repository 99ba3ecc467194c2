import { describe, expect, it } from "vitest";
import { toolsList } from "../../../test/helpers/probe-snapshots.js";
import { readCassette } from "#src/cassette/index.js";
import { applyBaseline } from "#src/contract/baseline.js";
import { checkRecordedCalls } from "./check-recordings.js";
import { recordedCalls, scanRecordedCalls, type RecordedCall } from "./recorded-calls.js";
import { createToolValidator } from "./schema-validator.js";

const dir = new URL("../../../test/fixtures/recordings-synthetic/", import.meta.url).pathname;

describe("recorded calls", () => {
  it("finds CLI calls (positional and stdin JSON) and MCP calls with their structured answers", async () => {
    const cli = recordedCalls(await readCassette(`${dir}cli-session`, { frames: "skip" }), "cli");
    expect(cli.map((c) => [c.tool, c.event, c.line])).toEqual([
      ["list_windows", 0, 2],
      ["click", 1, 3],
      ["click", 2, 4],
      ["move_cursor", 3, 5],
    ]);
    expect(cli[3]!.args).toEqual({ x: 5, y: 5, scope: "desktop" });
    expect(cli[1]!.output).toEqual({ delivery: { mode: "background" }, effect: "unverifiable", route: "accessibility" });
    const mcp = recordedCalls(await readCassette(`${dir}mcp-session`, { frames: "skip" }), "mcp");
    expect(mcp.map((c) => [c.tool, c.event, c.outputEvent])).toEqual([
      ["list_windows", 1, 2],
      ["get_screen_size", 3, 4],
      ["screenshot", 5, 6],
    ]);
  });

  for (const cassette of [
    "recordings/gtk3-demo-cli",
    "recordings/gtk3-demo-mcp",
    "test/fixtures/recordings-synthetic/cli-session",
    "test/fixtures/recordings-synthetic/mcp-session",
  ]) {
    it(`${cassette}: read line by line, within the output budget or past it (outputs read again when checked), the calls are the same`, async () => {
      const inMemory = recordedCalls(await readCassette(cassette, { frames: "skip" }), "c");
      const plain = (calls: RecordedCall[]) => JSON.parse(JSON.stringify(calls)) as unknown;
      for (const budgets of [{}, { plainBudget: 0 }, { plainBudget: 0, budget: 0 }, { plainBudget: 20_000, budget: 20_000 }]) {
        const { calls, scan } = scanRecordedCalls(cassette, "c", budgets);
        expect(plain(calls)).toEqual(plain(inMemory));
        expect(scan.events).toBeGreaterThan(0);
      }
      // the gate's verdicts over them are the same too
      const v = createToolValidator(toolsList("0.21.0").tools);
      const verdicts = (calls: RecordedCall[]) => checkRecordedCalls(calls, v).map((c) => [c.checked, c.breaks.map((b) => b.id), c.stale.length]);
      expect(verdicts(scanRecordedCalls(cassette, "c", { plainBudget: 0, budget: 0 }).calls)).toEqual(verdicts(inMemory));
    });
  }

  it("past the plain budget, equal outputs are kept once", () => {
    const { calls } = scanRecordedCalls("recordings/gtk3-demo-cli", "c", { plainBudget: 0 });
    const byText = new Map<string, unknown>();
    let repeated = 0;
    for (const c of calls) {
      if (c.output === undefined) continue;
      const text = JSON.stringify(c.output);
      if (byText.has(text)) {
        expect(c.output).toBe(byText.get(text));
        repeated++;
      } else byText.set(text, c.output);
    }
    // the recording reads the same window list again after each action
    expect(repeated).toBeGreaterThan(0);
  });
});

describe("checkRecordedCalls", () => {
  const call = (tool: string, args: unknown, output?: unknown): RecordedCall => ({
    cassette: "c",
    event: 7,
    line: 8,
    tool,
    transport: "cli",
    args,
    ...(output ? { output, outputEvent: 7 } : {}),
  });

  it("accepts what 0.21.0 accepts and names the JSON path and reason of what it rejects", () => {
    const v = createToolValidator(toolsList("0.21.0").tools);
    const [ok, badIn, badOut] = checkRecordedCalls(
      [
        call(
          "click",
          { pid: 1, window_id: 2, element_token: "s00000001:3" },
          { effect: "confirmed", route: "accessibility", evidence: [{ kind: "value_readback" }] },
        ),
        call("click", { pid: "one", button: "back" }),
        call("click", { pid: 1 }, { effect: "teleported", route: "accessibility" }),
      ],
      v,
    );
    expect(ok!.breaks).toEqual([]);
    expect(ok!.checked).toEqual(["input", "output"]);
    expect(badIn!.breaks.map((b) => [b.part, b.path, b.reason]).sort((a, b) => (a[1]! < b[1]! ? -1 : 1))).toEqual(
      [
        ["input", "$.button", 'must be equal to one of the allowed values ("left", "right", "middle")'],
        ["input", "$.pid", "must be integer"],
      ].sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
    );
    expect(badOut!.breaks[0]).toMatchObject({ part: "output", id: expect.stringMatching(/^recording:c#7:click:output:/) });
  });
});

describe("applyBaseline", () => {
  it("splits new, expected and stale failures", () => {
    const f = (id: string) => ({ id, source: "contract" as const, message: id });
    expect(applyBaseline([f("a"), f("b")], ["b", "c"])).toEqual({ unexpected: [f("a")], expected: [f("b")], stale: ["c"] });
    expect(applyBaseline([f("a")], undefined)).toEqual({ unexpected: [f("a")], expected: [], stale: [] });
  });
});
