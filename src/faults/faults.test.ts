import { describe, expect, it } from "vitest";
import { isUserError } from "#src/errors.js";
import { corruptBase64 } from "./corrupt-image.js";
import { emptyResult } from "./empty.js";
import { parseFaultPlan } from "./parse-plan.js";
import { refusalResult } from "./refusal.js";
import { applyResultFault } from "./result-faults.js";
import { createFaultSelector, globToRegExp } from "./select.js";

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(isUserError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected a UserError");
};

describe("fault plan parsing", () => {
  it("accepts the documented shape", () => {
    const plan = parseFaultPlan({
      file: "plan.json",
      text: JSON.stringify({ seed: 7, rules: [{ match: { tool: "click", nth: 2 }, fault: { kind: "refusal", code: "stale_element_token" } }] }),
    });
    expect(plan.rules[0]?.fault).toEqual({ kind: "refusal", code: "stale_element_token" });
  });

  it("names the field and lists valid kinds for an unknown fault kind", () => {
    const message = errorOf(() => parseFaultPlan({ file: "plan.json", text: '{"rules":[{"match":{},"fault":{"kind":"explode"}}]}' }));
    expect(message).toBe(
      'plan.json: rules[0].fault.kind: unknown fault kind "explode". Valid kinds: hang, delay, timeout_after_effect, timeout_before_effect, daemon_down, daemon_died_midcall, exit, truncated, corrupt_image, empty, refusal, stall, freeze, no_effect, oversized, session_expired, protocol_error.',
    );
  });

  it("names an unknown match key and lists the valid ones", () => {
    const message = errorOf(() => parseFaultPlan({ file: "p.json", text: '{"rules":[{"match":{"tools":"x"},"fault":{"kind":"hang"}}]}' }));
    expect(message).toBe('p.json: rules[0].match.tools: unknown match key "tools". Valid match keys: tool, kind, nth, every, probability.');
  });

  it("names a bad parameter", () => {
    const message = errorOf(() => parseFaultPlan({ file: "p.json", text: '{"rules":[{"match":{},"fault":{"kind":"delay"}}]}' }));
    expect(message).toMatch(/^p\.json: rules\[0\]\.fault\.ms: /);
  });

  it("a syntax error (a trailing comma) names its line", () => {
    const text = '{ "rules": [\n  { "match": {}, "fault": { "kind": "hang" } },\n] }\n';
    expect(errorOf(() => parseFaultPlan({ file: "p.json", text }))).toMatch(/^p\.json:3: fault plan is not valid JSON \(/);
  });

  it("names an unknown parameter of a fault, on its line, in the scenarios' path notation", () => {
    const text = '{ "rules": [\n  { "match": { "tool": "click" },\n    "fault": { "kind": "delay", "msec": 200 } }\n] }';
    expect(errorOf(() => parseFaultPlan({ file: "p.json", text }))).toMatch(
      /^p\.json:3: rules\[0\]\.fault\.msec: unknown key "msec" in a delay fault\. Valid keys for delay: kind, ms\b/,
    );
    const range = '{ "rules": [\n  { "match": { "probability": 2 },\n    "fault": { "kind": "hang" } }\n] }';
    expect(errorOf(() => parseFaultPlan({ file: "p.json", text: range }))).toMatch(/^p\.json:2: rules\[0\]\.match\.probability: /);
  });

  it("a rule needs match; match {} faults every call", () => {
    expect(errorOf(() => parseFaultPlan({ file: "p.json", text: '{"rules":[{"fault":{"kind":"hang"}}]}' }))).toBe(
      'p.json: rules[0]: the rule has no match. Add "match": { "tool": "…" } to pick the calls, or "match": {} to fault every call.',
    );
    expect(parseFaultPlan({ file: "p.json", text: '{"rules":[{"match":{},"fault":{"kind":"hang"}}]}' }).rules[0]!.match).toEqual({});
  });

  it("rejects bytes that are not UTF-8, naming the byte offset and its line", () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{ "rules": [],\n  "seed": 1 }'), 0xff]);
    bytes.set([0xc3, 0x28], 20);
    expect(errorOf(() => parseFaultPlan({ file: "p.json", text: bytes }))).toBe(
      "p.json:2: fault plan is not valid UTF-8 (byte offset 20: 0xc3). Save the plan as UTF-8 JSON.",
    );
    expect(
      parseFaultPlan({ file: "p.json", text: new TextEncoder().encode('{"rules":[{"match":{"tool":"é*"},"fault":{"kind":"hang"}}]}') }).rules,
    ).toHaveLength(1);
  });

  it("rejects invalid JSON naming the file", () => {
    expect(errorOf(() => parseFaultPlan({ file: "p.json", text: "{" }))).toMatch(/^p\.json: fault plan is not valid JSON/);
  });
});

describe("fault selection", () => {
  it("matches tool globs, kinds, nth and every", () => {
    expect(globToRegExp("get_*").test("get_window_state")).toBe(true);
    expect(globToRegExp("get_*").test("list_windows")).toBe(false);
    const s = createFaultSelector({
      plan: {
        rules: [
          { match: { tool: "click", nth: 2 }, fault: { kind: "hang" } },
          { match: { kind: "read", every: 2 }, fault: { kind: "empty" } },
        ],
      },
    });
    const seq = [
      s.next({ tool: "click", kind: "mutation" }),
      s.next({ tool: "list_windows", kind: "read" }),
      s.next({ tool: "click", kind: "mutation" }),
      s.next({ tool: "list_windows", kind: "read" }),
      s.next({ tool: "click", kind: "mutation" }),
    ].map((x) => x?.fault.kind ?? null);
    expect(seq).toEqual([null, null, "hang", "empty", null]);
  });

  it("draws the same faults for the same seed, different ones for another", () => {
    const plan = { rules: [{ match: { probability: 0.5 }, fault: { kind: "delay" as const, ms: 5 } }] };
    const run = (seed: number) => {
      const s = createFaultSelector({ plan, seed });
      return Array.from({ length: 40 }, () => (s.next({ tool: "click", kind: "mutation" }) ? 1 : 0)).join("");
    };
    expect(run(1)).toBe(run(1));
    expect(run(1)).not.toBe(run(2));
    expect(run(1)).toMatch(/1/);
    expect(run(1)).toMatch(/0/);
  });
});

describe("fault shapes", () => {
  it("renders refusals in the driver's envelope shapes", () => {
    expect(refusalResult({ code: "stale_element_token", tool: "click", args: {} })).toBe(
      '{"content":[{"text":"element_token is stale; call get_window_state again to refresh","type":"text"}],"isError":true,"structuredContent":{"refusal":{"code":"stale_element_token","message":"element_token is stale; call get_window_state again to refresh"},"status":"refused"}}',
    );
    expect(JSON.parse(refusalResult({ code: "ambiguous_window_target", tool: "click", args: { pid: 9 } })).structuredContent).toEqual({
      candidates: [],
      code: "ambiguous_window_target",
      effect: "refused",
      pid: 9,
    });
    expect(JSON.parse(refusalResult({ code: "background_unavailable", tool: "press_key", args: {} })).structuredContent.escalation.recommended).toBe(
      "foreground",
    );
  });

  it("renders the element-identity refusal the source after 0.28.2 names, in the element envelope with the driver's text", () => {
    const text = "click: pass an identity-bearing element_token from get_window_state; an index alone cannot identify an observed control";
    expect(JSON.parse(refusalResult({ code: "element_identity_required", tool: "click", args: { element_index: 3 } }))).toEqual({
      content: [{ text, type: "text" }],
      isError: true,
      structuredContent: { refusal: { code: "element_identity_required", message: text }, status: "refused" },
    });
    // the resolver's own text is passed through: the fault's message, in the same envelope
    expect(JSON.parse(refusalResult({ code: "element_resolution_failed", tool: "set_value", args: {}, message: "no such element" })).structuredContent).toEqual(
      { refusal: { code: "element_resolution_failed", message: "no such element" }, status: "refused" },
    );
  });

  it("lists the given candidate windows in target-style refusals, in serde_json key order", () => {
    const candidates = [{ window_id: 7, title: 'Ünïcode "doc"', is_on_screen: false, app_name: "gedit" }];
    expect(refusalResult({ code: "ambiguous_window_target", tool: "click", args: { target: { pid: 42 } }, candidates })).toBe(
      '{"content":[{"text":"pid 42 has more than one eligible top-level window; pass window_id.","type":"text"}],"isError":true,"structuredContent":{"candidates":[{"app_name":"gedit","is_on_screen":false,"title":"Ünïcode \\"doc\\"","window_id":7}],"code":"ambiguous_window_target","effect":"refused","pid":42}}',
    );
    expect(
      JSON.parse(refusalResult({ code: "window_target_not_found", tool: "click", args: { pid: 42 }, candidates })).structuredContent.candidates,
    ).toHaveLength(1);
    // resolution failures and other envelopes have no candidate list to fill
    expect(
      JSON.parse(refusalResult({ code: "window_target_resolution_failed", tool: "click", args: { pid: 42 }, candidates })).structuredContent.candidates,
    ).toEqual([]);
    expect(refusalResult({ code: "stale_element_token", tool: "click", args: {}, candidates })).not.toContain("candidates");
    expect(applyResultFault({ fault: { kind: "refusal", code: "ambiguous_window_target" }, tool: "click", args: { pid: 42 }, candidates })).toContain(
      '"window_id":7}]',
    );
  });

  it("empties results in each tool's own shape", () => {
    expect(emptyResult({ tool: "list_windows" })).toBe('{"content":[{"text":"Found 0 windows:","type":"text"}],"structuredContent":{"windows":[]}}');
    expect(emptyResult({ tool: "click" })).toBe('{"content":[]}');
    const desktop = emptyResult({
      tool: "get_desktop_state",
      recorded:
        '{"content":[{"data":"AAAA","mimeType":"image/png","type":"image"},{"text":"ok","type":"text"}],"structuredContent":{"display":"primary","screenshot_height":8,"screenshot_mime_type":"image/png"}}',
    });
    expect(desktop).toBe('{"content":[{"text":"ok","type":"text"}],"structuredContent":{"display":"primary"}}');
  });

  it("corrupts image data but keeps it valid base64 of the same length", () => {
    const png = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.alloc(60, 7)]).toString("base64");
    const bad = corruptBase64(png);
    expect(bad).toHaveLength(png.length);
    expect(bad).not.toBe(png);
    expect(Buffer.from(bad, "base64").subarray(0, 8)).toEqual(Buffer.from(png, "base64").subarray(0, 8));
  });
});
