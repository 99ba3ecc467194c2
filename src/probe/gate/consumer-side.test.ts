import { describe, expect, it } from "vitest";
import { toolsList } from "../../../test/helpers/probe-snapshots.js";
import { readCassette } from "#src/cassette/index.js";
import type { ToolEntry } from "#src/schema/probe-snapshot.js";
import { checkRecordedCalls } from "./check-recordings.js";
import { consumerView } from "./consumer-view.js";
import { recordedCalls, type RecordedCall } from "./recorded-calls.js";
import { createToolValidator } from "./schema-validator.js";

const root = new URL("../../../", import.meta.url).pathname;
const bundled = async (): Promise<RecordedCall[]> => {
  const out: RecordedCall[] = [];
  for (const name of ["gtk3-demo-cli", "gtk3-demo-mcp"])
    out.push(...recordedCalls(await readCassette(`${root}recordings/${name}`, { frames: "skip" }), `recordings/${name}`));
  return out;
};
const withSchema = (version: string, tool: string, edit: (schema: any) => void): ToolEntry[] => {
  const tools = structuredClone(toolsList(version).tools);
  edit(tools.find((t) => t.name === tool)!.outputSchema);
  return tools;
};

describe("recorded outputs, judged from the consumer's side", () => {
  it.each(["0.24.0", "0.28.2"])(
    "0.21 recordings against %s: the start_session outputs are stale (desktop_capture_authorized is newly required), nothing breaks",
    async (version) => {
      const checks = checkRecordedCalls(await bundled(), createToolValidator(toolsList(version).tools));
      expect(checks.flatMap((c) => c.breaks)).toEqual([]);
      const stale = checks.flatMap((c) => c.stale);
      expect(stale.map((s) => [s.cassette, s.event, s.tool, s.missing])).toEqual([
        ["recordings/gtk3-demo-cli", 3, "start_session", ["$.desktop_capture_authorized"]],
        ["recordings/gtk3-demo-cli", 21, "start_session", ["$.desktop_capture_authorized"]],
        ["recordings/gtk3-demo-mcp", 9, "start_session", ["$.desktop_capture_authorized"]],
        ["recordings/gtk3-demo-mcp", 45, "start_session", ["$.desktop_capture_authorized"]],
      ]);
      expect(stale[0]!.message).toBe(
        "recordings/gtk3-demo-cli event 3 (start_session): the recorded output lacks $.desktop_capture_authorized, which the candidate now requires",
      );
    },
  );

  it("the same recordings against 0.21.0 itself: nothing stale, nothing broken", async () => {
    const checks = checkRecordedCalls(await bundled(), createToolValidator(toolsList("0.21.0").tools));
    expect(checks.flatMap((c) => [...c.breaks, ...c.stale])).toEqual([]);
    expect(checks.filter((c) => c.checked.includes("output")).length).toBeGreaterThan(25);
  });

  it("a value the candidate no longer allows breaks: enum narrowed, type narrowed, a new range, a field it no longer accepts", async () => {
    const calls = (await bundled()).filter((c) => c.cassette === "recordings/gtk3-demo-cli");
    const breaks = (tools: ToolEntry[]) =>
      checkRecordedCalls(calls, createToolValidator(tools))
        .flatMap((c) => c.breaks)
        .map((b) => [b.event, b.tool, b.path, b.reason]);
    // capture_scope "auto" dropped from the enum, on top of 0.24.0's new required property.
    expect(
      breaks(
        withSchema("0.24.0", "start_session", (s) => {
          s.anyOf[0].properties.capture_scope.enum = ["window", "desktop"];
        }),
      ),
    ).toEqual([
      [3, "start_session", "$.capture_scope", 'must be equal to one of the allowed values ("window", "desktop")'],
      [21, "start_session", "$.capture_scope", 'must be equal to one of the allowed values ("window", "desktop")'],
    ]);
    expect(
      breaks(
        withSchema("0.28.2", "end_session", (s) => {
          s.anyOf[0].properties.active = { type: "string" };
        }),
      ),
    ).toEqual([[19, "end_session", "$.active", "must be string"]]);
    const pidAtMost = (max: number) =>
      withSchema("0.28.2", "list_windows", (s) => {
        s.anyOf[0].properties.windows.items.properties.pid = { type: "integer", maximum: max };
      });
    const firstList = (tools: ToolEntry[]) =>
      checkRecordedCalls(
        calls.filter((c) => c.event === 4),
        createToolValidator(tools),
      ).flatMap((c) => c.breaks);
    expect(firstList(pidAtMost(100)).map((b) => [b.path, b.reason])[0]).toEqual(["$.windows[0].pid", "must be <= 100"]);
    expect(firstList(pidAtMost(1 << 22))).toEqual([]);
    // The ActionResult shape is closed (additionalProperties: false): a field the harness read that the candidate drops is refused.
    expect(
      breaks(
        withSchema("0.28.2", "set_window_frame", (s) => {
          delete s.anyOf[0].properties.evidence;
        }),
      ),
    ).toEqual([[16, "set_window_frame", "$", 'must NOT have additional properties ("evidence"); must match a schema in anyOf']]);
  });

  it("recorded inputs keep the strict rule: a request the candidate rejects breaks", () => {
    const call: RecordedCall = { cassette: "c", event: 1, line: 2, tool: "click", transport: "cli", args: { pid: 1, window_id: 2, x: 3, y: 4, target: null } };
    const [check] = checkRecordedCalls([call], createToolValidator(toolsList("0.28.2").tools));
    expect(check!.breaks.map((b) => [b.part, b.path])).toEqual([["input", "$.target"]]);
    const [before] = checkRecordedCalls([call], createToolValidator(toolsList("0.21.0").tools));
    expect(before!.breaks).toEqual([]);
  });
});

describe("consumerView", () => {
  it("drops required declared properties, keeps required names that tell shapes apart, reads oneOf as anyOf", () => {
    const view = consumerView({
      oneOf: [
        {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "object", properties: { c: { type: "integer" } }, required: ["c"] } },
          required: ["a", "b"],
        },
        { type: "object", anyOf: [{ required: ["refusal"] }] },
      ],
    });
    expect(view).toEqual({
      anyOf: [
        { type: "object", properties: { a: { type: "string" }, b: { type: "object", properties: { c: { type: "integer" } } } } },
        { type: "object", anyOf: [{ required: ["refusal"] }] },
      ],
    });
  });
});
