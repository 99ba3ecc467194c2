import { describe, expect, it } from "vitest";
import { checkInputTarget } from "./input-target.js";

describe("checkInputTarget", () => {
  it.each([
    [{ app: "Gtk3-demo" }, { app: "gtk3-demo" }],
    [{ app: "gtk3" }, { app: "Gtk3-demo" }],
    [{ app: " Firefox " }, { app: "firefox" }],
    [
      { window_id: 5, pid: 9 },
      { window_id: 5, pid: 9, app: "x" },
    ],
    [{}, undefined],
    [{ window_id: 5 }, { window_id: 5 }],
  ])("passes %j on %j", (requested, current) => {
    expect(checkInputTarget(requested, current)).toEqual({ ok: true });
  });

  it.each([
    [{ app: "Firefox" }, { app: "Gtk3-demo" }, "input_target_mismatch"],
    [{ app: "a" }, { app: "Gtk3-demo" }, "input_target_mismatch"],
    [{ window_id: 5 }, { window_id: 6 }, "input_target_mismatch"],
    [{ pid: 1, window_id: 5 }, { pid: 2, window_id: 5 }, "input_target_mismatch"],
    [{ app: "Firefox" }, undefined, "input_target_unknown"],
    [{ window_id: 5 }, {}, "input_target_unknown"],
  ])("refuses %j on %j (%s)", (requested, current, code) => {
    const r = checkInputTarget(requested, current);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe(code);
  });

  it("names both targets", () => {
    const r = checkInputTarget({ app: "Firefox" }, { app: "Gtk3-demo", window_id: 7 });
    expect(!r.ok && r.note).toBe(
      "The input would go to the current target 'Gtk3-demo' window 7, not 'Firefox'. Observe the intended window first, then retry.",
    );
  });
});
