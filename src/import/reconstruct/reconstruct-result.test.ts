import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TrajectoryActionSchema } from "#src/schema/trajectory.js";
import { rebuildActionResult, rebuildWindowState } from "./reconstruct-result.js";

const fixtures = path.join(import.meta.dirname, "../../../test/fixtures/trajectories");
const oracle = readFileSync(path.join(fixtures, "gtk3-demo-0.21.0.results.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as { result: { content: Array<{ text: string }>; isError?: boolean; structuredContent?: unknown } });

function action(turn: number) {
  const file = path.join(fixtures, "gtk3-demo-0.21.0", `turn-${String(turn).padStart(5, "0")}`, "action.json");
  return TrajectoryActionSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

describe("rebuildActionResult (real 0.21.0 turns against what the driver returned)", () => {
  oracle.forEach((truth, i) => {
    it(`turn ${i + 1}: text, isError and structuredContent match`, () => {
      const rebuilt = rebuildActionResult(action(i + 1));
      expect(rebuilt.text).toBe(truth.result.content[0]!.text);
      expect(rebuilt.isError).toBe(truth.result.isError === true);
      expect(rebuilt.structured).toEqual(truth.result.structuredContent);
      expect(rebuilt.unmapped).toEqual([]);
    });
  });

  // Seen from the 0.21.0 runtime when the foreground could not be taken: isError with text only.
  it("keeps an error without a known shape text-only, as the driver sends it", () => {
    const rebuilt = rebuildActionResult(
      TrajectoryActionSchema.parse({
        tool: "click",
        arguments: { pid: 1, window_id: 2, x: 60, y: 155, delivery_mode: "foreground" },
        result_error: true,
        result_summary:
          "foreground_unavailable: X11 did not confirm active window and input focus within exact target 0x400007 before the 400ms deadline (active=0x400127); no input was sent",
      }),
    );
    expect(rebuilt.isError).toBe(true);
    expect(rebuilt.structured).toBeUndefined();
    expect(rebuilt.text).toMatch(/^foreground_unavailable: /);
  });

  it("says what it could not rebuild instead of guessing", () => {
    const rebuilt = rebuildActionResult(
      TrajectoryActionSchema.parse({
        tool: "type_text",
        arguments: { text: "x" },
        result_error: false,
        result_summary: "Typed 1 character(s).",
        action_truth: { effect: "unverifiable", route: "accessibility", actual_delivery: "background", escalation: { kind: "something_new" } },
      }),
    );
    expect(rebuilt.structured).toEqual({ effect: "unverifiable", route: "accessibility", delivery: { mode: "background" } });
    expect(rebuilt.unmapped).toEqual(['escalation kind "something_new" has no known ActionResult form: escalation left out']);
  });
});

describe("rebuildWindowState", () => {
  it("keeps only recorded fields and takes the image size from the PNG", () => {
    const png = readFileSync(path.join(fixtures, "gtk3-demo-0.21.0/turn-00001/before.png"));
    const { structured } = rebuildWindowState({ state: { element_count: 3, pid: 7, window_id: 9, tree_markdown: "- frame" }, png });
    expect(structured).toEqual({
      element_count: 3,
      pid: 7,
      window_id: 9,
      tree_markdown: "- frame",
      screenshot_width: 520,
      screenshot_height: 400,
      screenshot_mime_type: "image/png",
    });
  });
});
