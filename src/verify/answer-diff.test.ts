import { describe, expect, it } from "vitest";
import { diffAnswers } from "./answer-diff.js";
import { createIdMap } from "./id-map.js";
import { judgeCliAnswer, judgeMcpAnswer, worstOf } from "./judge-answer.js";
import { createUnredactor } from "./secrets.js";
import { placeholderFor } from "#src/cassette/index.js";

const at = (list: ReturnType<typeof diffAnswers>) => list.map((d) => [d.severity, d.path]);

describe("diffAnswers", () => {
  const recorded = {
    effect: "confirmed",
    route: "accessibility",
    delivery: { mode: "background" },
    pid: 10133,
    window_id: 4194311,
    elements: [{ element_token: "s00000001:0", label: "Minimize", frame: { x: 921, y: 84, w: 34, h: 30 } }],
    elapsed_ms: 106,
    snapshot_id: "s00000001",
    tree_markdown: "- frame",
    escalation: null,
    message: "done",
  };

  it("is silent on ids, tokens, times, renderings and geometry within the tolerance", () => {
    const live = structuredClone(recorded);
    Object.assign(live, { pid: 20001, window_id: 5, snapshot_id: "s00000009", elapsed_ms: 999, tree_markdown: "- other" });
    live.elements[0]!.element_token = "s00000009:0";
    live.elements[0]!.frame.x = 927;
    expect(diffAnswers(recorded, live, { tolerance: 8 })).toEqual([]);
    expect(at(diffAnswers(recorded, live, { tolerance: 2 }))).toEqual([["behavioural", "$.elements[0].frame.x"]]);
  });

  it("classes a field gone or retyped as breaking, a new value or null as behavioural, a new field as additive, prose as cosmetic", () => {
    const live = {
      ...structuredClone(recorded),
      effect: "unverifiable",
      delivery: "background",
      escalation: { reason: "x" },
      message: "finished",
      evidence: [],
    } as Record<string, unknown>;
    delete live.route;
    expect(at(diffAnswers(recorded, live, { tolerance: 8 })).sort()).toEqual(
      [
        ["additive", "$.evidence"],
        ["behavioural", "$.effect"],
        ["behavioural", "$.escalation"],
        ["breaking", "$.delivery"],
        ["breaking", "$.route"],
        ["cosmetic", "$.message"],
      ].sort(),
    );
  });

  it("compares text that is JSON as JSON and names the count of a list that changed", () => {
    const a = { predicates: [{ observed_json: JSON.stringify({ exists: true, bounds: { x: 1 } }) }], windows: [{}, {}] };
    const b = { predicates: [{ observed_json: JSON.stringify({ exists: false, bounds: { x: 1 } }) }], windows: [{}] };
    expect(diffAnswers(a, b, { tolerance: 8 }).map((d) => d.message)).toEqual([
      "$.predicates[0].observed_json.exists was true, now false",
      "$.windows held 2 item(s), now 1",
    ]);
  });
});

describe("judging whole answers", () => {
  it("a per-call answer that now fails is breaking; one that now succeeds is behavioural", () => {
    const ok = { stdout: '{"effect":"confirmed"}', stderr: "", exitCode: 0, files: [] };
    const failed = { stdout: "", stderr: "session 'x' has ended; tool call 'click' was rejected\n", exitCode: 1, files: [] };
    expect(judgeCliAnswer(ok, failed, 8).map((d) => [d.severity, d.message])).toEqual([
      ["breaking", "the call now fails (exit 1): session 'x' has ended; tool call 'click' was rejected"],
    ]);
    expect(worstOf(judgeCliAnswer(failed, ok, 8))).toBe("behavioural");
    expect(judgeCliAnswer({ ...ok, files: ["--screenshot-out-file"] }, ok, 8).map((d) => d.severity)).toEqual(["breaking"]);
  });

  it("an MCP tools/call answer is compared on isError and structuredContent, at its JSON-RPC path", () => {
    const res = (structuredContent: unknown, isError = false) => ({
      jsonrpc: "2.0",
      id: 3,
      result: { content: [{ type: "text", text: "ok" }], structuredContent, isError },
    });
    expect(
      judgeMcpAnswer({ method: "tools/call", recorded: res({ effect: "confirmed" }), live: res({ effect: "refused" }, true), tolerance: 8 }).map((d) => [
        d.severity,
        d.path,
      ]),
    ).toEqual([
      ["breaking", "$.result.isError"],
      ["behavioural", "$.result.structuredContent.effect"],
    ]);
    expect(
      judgeMcpAnswer({ method: "tools/call", recorded: res({}), live: { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "bad" } }, tolerance: 8 })[0],
    ).toMatchObject({ severity: "breaking", path: "$.error" });
  });
});

describe("ids and secrets handed back to the live run", () => {
  it("learns recorded → live ids from answers and puts the live ones into the next request", () => {
    const ids = createIdMap();
    ids.learn({ windows: [{ pid: 10133, window_id: 4194311, title: "A" }] }, { windows: [{ pid: 777, window_id: 4194311, title: "A" }] });
    ids.learn({ elements: [{ element_token: "s00000002:18" }] }, { elements: [{ element_token: "s00000003:18" }] });
    expect(ids.apply({ pid: 10133, window_id: 4194311, element_token: "s00000002:18", x: 10133 })).toEqual({
      pid: 777,
      window_id: 4194311,
      element_token: "s00000003:18",
      x: 10133,
    });
  });

  it("uses a --secret only where its hash matches the placeholder", () => {
    const secrets = createUnredactor(["hello from cua-contract", "wrong"]);
    const p = placeholderFor("text", "hello from cua-contract");
    expect(secrets.apply({ text: p, other: [p] })).toEqual({ text: "hello from cua-contract", other: ["hello from cua-contract"] });
    const unknown = placeholderFor("text", "something else");
    expect(secrets.apply({ text: unknown })).toEqual({ text: unknown });
    expect(secrets.unknown(`a ${p} b ${unknown}`)).toEqual([unknown]);
  });
});
