import { describe, expect, it } from "vitest";
import { HARNESS_ACTION_NAMES } from "#src/schema/harness-step.js";
import { nearestAction } from "./nearest-action.js";

describe("nearestAction", () => {
  it.each([
    ["screenshot", "observe"],
    ["capture", "observe"],
    ["left_click", "click"],
    ["mouse_click", "click"],
    ["type", "type_text"],
    ["input_text", "type_text"],
    ["key_combo", "hotkey"],
    ["shortcut", "hotkey"],
    ["keypress", "press_key"],
    ["sleep", "wait"],
    ["clik", "click"],
    ["typetext", "type_text"],
    ["list_window", "list_windows"],
    ["Get_Window_State", "get_window_state"],
  ])("%s → did you mean %s", (name, suggestion) => {
    const r = nearestAction(name, HARNESS_ACTION_NAMES);
    expect(r.known).toBe(name.toLowerCase() === suggestion);
    if (!r.known) {
      expect(r.suggestion).toBe(suggestion);
      expect(r.note).toBe(`Unknown action '${name}'. Did you mean '${suggestion}'? The action was not run.`);
    }
  });

  it("lists the known actions when nothing is close", () => {
    const r = nearestAction("teleport", ["click", "wait"]);
    expect(r).toEqual({ known: false, note: "Unknown action 'teleport'. Known actions: click, wait. The action was not run." });
  });

  it("only suggests names that are known", () => {
    expect(nearestAction("screenshot", ["click"]).suggestion).toBeUndefined();
  });
});
