import { describe, expect, it } from "vitest";
import { captured } from "../../../test/helpers/scripted-driver.js";
import type { Reply } from "#src/driver/port.js";
import { classifyActionResult, mostSevereVerdict } from "./verdict.js";

const sc = (structuredContent: Record<string, unknown>, isError?: boolean): Reply => ({
  content: [{ type: "text", text: "x" }],
  structuredContent,
  ...(isError ? { isError } : {}),
});

describe("classifyActionResult on real 0.21.0 replies", () => {
  const table: [string, string, string, string | undefined][] = [
    // file, decision, outcome, recommended
    ["xvfb-11_click_element_token", "verify_fresh_state", "unconfirmed", undefined],
    ["xvfb-12_click_element_index_with_snapshot_id", "verify_fresh_state", "unconfirmed", undefined],
    ["xvfb-13_click_bare_element_index_refused", "escalate", "refused", undefined],
    ["xvfb-15_click_old_token_stale", "escalate", "refused", undefined],
    ["xvfb-16_click_window_pixel_background", "verify_fresh_state", "unconfirmed", undefined],
    ["xvfb-18_click_target_mixed_with_legacy_pid", "escalate", "refused", undefined],
    ["xvfb-19_click_desktop_target", "verify_fresh_state", "unconfirmed", undefined],
    ["xvfb-20_click_desktop_target_bad_display", "escalate", "refused", undefined],
    ["xvfb-21_move_cursor_desktop", "verify_fresh_state", "unconfirmed", undefined],
    ["xvfb-22_press_key_background_unavailable", "escalate", "refused", "foreground"],
    ["xvfb-23_press_key_foreground", "verify_fresh_state", "unconfirmed", undefined],
    ["xvfb-24_hotkey_background_unavailable", "escalate", "refused", "foreground"],
    ["xvfb-25_type_text_pid_window", "verify_fresh_state", "unconfirmed", "foreground"],
    ["xvfb-26_scroll_background_unavailable", "escalate", "refused", "foreground"],
    ["xvfb-29_set_window_frame_confirmed", "done", "confirmed", undefined],
    ["headless-07_click_pid_without_windows", "escalate", "refused", undefined],
    ["headless-08_click_stale_element_token", "escalate", "refused", undefined],
    ["headless-09_click_desktop_target_no_display", "escalate", "refused", undefined],
    ["headless-15_click_with_ended_session", "escalate", "refused", undefined],
    ["headless-18_verify_state_invalid_arguments", "escalate", "refused", undefined],
    ["headless-25_unknown_tool_sdk_path", "escalate", "refused", undefined],
  ];
  it.each(table)("%s → %s/%s", (file, decision, outcome, recommended) => {
    const v = classifyActionResult(captured(file), { tool: "click" });
    expect(v.decision).toBe(decision);
    expect(v.outcome).toBe(outcome);
    expect(v.recommended).toBe(recommended);
    expect(v.note.length).toBeGreaterThan(10);
  });

  it("names the refusal code and the driver's message", () => {
    const v = classifyActionResult(captured("xvfb-13_click_bare_element_index_refused"));
    expect(v.note).toContain("snapshot_id_required");
    expect(v.note).toContain("bare element_index is not accepted");
  });

  it("tells the model to refresh, never to retarget, on a stale token", () => {
    const v = classifyActionResult(captured("xvfb-15_click_old_token_stale"));
    expect(v.note).toMatch(/read the window again/i);
    expect(v.note).toMatch(/look-alike/);
  });

  it("an unverifiable effect with a suggested escalation still says never re-send", () => {
    const v = classifyActionResult(captured("xvfb-25_type_text_pid_window"));
    expect(v.note).toMatch(/never re-send/);
    expect(v.note).toMatch(/even if an escalation is suggested/);
  });

  it("reads succeed as done", () => {
    expect(classifyActionResult(captured("headless-03_list_windows_no_display"), { tool: "list_windows", readOnly: true }).decision).toBe("done");
  });
});

describe("classifyActionResult rules", () => {
  it("confirmed says do not repeat and outranks an advisory escalation", () => {
    const v = classifyActionResult(
      sc({
        effect: "confirmed",
        route: "accessibility",
        escalation: { reason: "effect_unconfirmed", target: "pixel" },
        evidence: [{ kind: "value_readback" }],
      }),
    );
    expect(v).toMatchObject({ decision: "done", outcome: "confirmed" });
    expect(v.note).toMatch(/do not repeat/);
  });

  it("legacy verified:true is done even with an error code", () => {
    expect(classifyActionResult(sc({ verified: true, code: "whatever" })).decision).toBe("done");
  });

  it("partial is verify_fresh_state", () => {
    const v = classifyActionResult(sc({ effect: "partial", delivery: { mode: "background", delivered_count: 2 }, route: "synthetic_events" }));
    expect(v).toMatchObject({ decision: "verify_fresh_state", outcome: "unconfirmed" });
    expect(v.note).toMatch(/part of the input/);
  });

  it.each([
    [{ effect: "suspected_noop", route: "accessibility", escalation: { reason: "suspected_noop", target: "pixel" } }, "pixel"],
    [{ effect: "suspected_noop", escalation: { recommended: "px", reason: "AX walk" } }, "px"],
    [{ effect: "suspected_noop" }, undefined],
  ])("suspected_noop escalates with the recommended rung (%#)", (structured, recommended) => {
    const v = classifyActionResult(sc(structured));
    expect(v).toMatchObject({ decision: "escalate", outcome: "no_effect" });
    expect(v.recommended).toBe(recommended);
  });

  it("effect refused without isError still escalates", () => {
    expect(classifyActionResult(sc({ effect: "refused", route: "accessibility" }))).toMatchObject({ decision: "escalate", outcome: "refused" });
  });

  it("legacy code without isError escalates (refusal envelope by code)", () => {
    expect(classifyActionResult(sc({ code: "foreground_unsupported" }))).toMatchObject({ decision: "escalate", outcome: "refused" });
  });

  it("0 characters typed escalates to set_value", () => {
    const v = classifyActionResult(sc({ code: "type_text_incomplete", delivered_chars: 0, requested_chars: 5 }, true));
    expect(v).toMatchObject({ decision: "escalate", recommended: "set_value", outcome: "no_effect" });
  });

  it("a successful reply with no semantic evidence is not proof of effect", () => {
    const v = classifyActionResult({ content: [{ type: "text", text: "✅ Clicked" }] });
    expect(v).toMatchObject({ decision: "verify_fresh_state", outcome: "unconfirmed" });
    expect(v.note).toMatch(/transport success is not proof of effect/);
  });

  it("unknown effect strings fall to verify_fresh_state", () => {
    expect(classifyActionResult(sc({ effect: "mystery" })).decision).toBe("verify_fresh_state");
  });

  it.each(["timeout", "transport_error", "daemon_died"] as const)("%s on a mutation: unknown outcome, fresh state, do not repeat", (kind) => {
    const v = classifyActionResult({ kind, tool: "click" });
    expect(v).toMatchObject({ decision: "verify_fresh_state", outcome: "unknown" });
    expect(v.note).toMatch(/may have happened/);
    expect(v.note).toMatch(/do not repeat/);
    expect(v.note).toMatch(/^click /);
  });

  it("a failed read says nothing reached the screen", () => {
    const v = classifyActionResult({ kind: "timeout", tool: "list_windows" }, { readOnly: true });
    expect(v.note).toMatch(/nothing was sent/);
  });

  it("a JSON text block (CLI stdout, old drivers) is read when structuredContent is absent", () => {
    const v = classifyActionResult({ content: [{ type: "text", text: JSON.stringify({ effect: "confirmed", evidence: [{ kind: "window_change" }] }) }] });
    expect(v.decision).toBe("done");
  });
});

describe("mostSevereVerdict", () => {
  it("takes escalate over verify_fresh_state over done, first on ties", () => {
    const done = classifyActionResult(captured("xvfb-29_set_window_frame_confirmed"));
    const verify = classifyActionResult(captured("xvfb-11_click_element_token"));
    const esc1 = classifyActionResult(captured("xvfb-13_click_bare_element_index_refused"));
    const esc2 = classifyActionResult(captured("xvfb-15_click_old_token_stale"));
    expect(mostSevereVerdict([done, verify])).toBe(verify);
    expect(mostSevereVerdict([done, esc1, verify, esc2])).toBe(esc1);
    expect(mostSevereVerdict([done])).toBe(done);
    expect(mostSevereVerdict([])).toBeUndefined();
  });
});

describe("verdict edge cases (docs/verdicts.md, the table of rules)", () => {
  it("unverifiable wins over an error flag and a code (hermes rule 2)", () => {
    expect(classifyActionResult(sc({ effect: "unverifiable", code: "delivery_failed" }, true))).toMatchObject({
      decision: "verify_fresh_state",
      outcome: "unconfirmed",
    });
  });

  it("type_text_synthesis_budget_exceeded stays on the driver's own recommendation, not set_value", () => {
    const v = classifyActionResult(
      sc({ code: "type_text_synthesis_budget_exceeded", delivered_chars: 0, requested_chars: 9, escalation: { recommended: "chunk" } }, true),
    );
    expect(v).toMatchObject({ decision: "escalate", outcome: "refused", recommended: "chunk" });
  });

  it("type_text_incomplete with characters delivered is not the set_value case", () => {
    expect(classifyActionResult(sc({ code: "type_text_incomplete", delivered_chars: 3, requested_chars: 9 }, true)).recommended).toBeUndefined();
  });

  it.each(["timeout_outcome_unknown", "transport_outcome_unknown", "remote_transport_outcome_unknown"])(
    "a hermes fail-closed envelope (%s) is an unknown outcome, not a refusal (decision 0030)",
    (code) => {
      const envelope = {
        content: [{ type: "text", text: "outcome unknown" }],
        isError: true,
        structuredContent: { ok: false, code, message: "…", operation: "click", next_step: "fresh_state" },
      };
      expect(classifyActionResult(envelope, { tool: "click" })).toMatchObject({ decision: "verify_fresh_state", outcome: "unknown" });
    },
  );
});
