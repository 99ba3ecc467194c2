import { describe, expect, it } from "vitest";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { runInvariants } from "#src/invariants/run.js";
import { answerMcpCall } from "#src/transports/mcp/answer.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { answerInprocess } from "./answer-inprocess.js";
import { createEngine } from "./engine.js";
import type { ReplayRequest } from "./request.js";

const LIST = '{"content":[{"text":"Found 0 windows","type":"text"}],"structuredContent":{"windows":[]}}';

function cassette(withToolsList?: string[]): CassetteEvent[] {
  const lines: string[] = [];
  if (withToolsList) {
    lines.push('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    lines.push(
      `{"jsonrpc":"2.0","id":1,"result":{"tools":${JSON.stringify(withToolsList.map((name) => ({ name, annotations: { readOnlyHint: name.startsWith("list") } })))}}}`,
    );
  }
  lines.push('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_windows","arguments":{}}}');
  lines.push(`{"jsonrpc":"2.0","id":2,"result":${LIST}}`);
  return [
    { seq: 0, t_ms: 0, origin: "harness", kind: "mcp_open", stream: 0, argv: ["mcp"] },
    ...lines.map((line, i) => ({ seq: i + 1, t_ms: i, origin: "harness", kind: "mcp", stream: 0, dir: i % 2 === 0 ? "c2s" : "s2c", line })),
  ] as CassetteEvent[];
}

const call = (tool: string, transport: ReplayRequest["transport"] = "inprocess"): ReplayRequest => ({ transport, method: "call", tool, args: {} });
const TEXT = "Permission denied: tool 'frobnicate' has no reviewed risk classification";

describe("a tool the driver does not list", () => {
  it("is refused as permission_denied in the driver's shape on every transport, not as unmatched", () => {
    const engine = createEngine({ events: cassette() });
    const d = engine.decide(call("frobnicate"));
    expect(d).toMatchObject({ outcome: "replayed", synthetic: { kind: "permission_denied" }, epochBefore: 0, epochAfter: 0 });
    const mcp = answerMcpCall({ decision: d, idRaw: "4", transport: "mcp" });
    expect(mcp.type === "line" && mcp.line).toBe(
      `{"jsonrpc":"2.0","id":4,"result":{"content":[{"text":"${TEXT}","type":"text"}],"isError":true,"structuredContent":{"code":"permission_denied"}}}`,
    );
    const http = answerMcpCall({ decision: d, idRaw: "4", transport: "http" });
    expect(http).toEqual(mcp);
    expect(answerInprocess(d)).toMatchObject({
      type: "reply",
      reply: { isError: true, structuredContent: { code: "permission_denied" }, content: [{ text: TEXT }] },
    });
    expect(answerCli({ decision: { ...d, request: call("frobnicate", "cli") } })).toMatchObject({
      type: "output",
      stdout: "",
      stderr: `${TEXT}\n`,
      exitCode: 1,
    });
  });

  it("is logged with the tool so no-unknown-tools fires, and nothing is counted unmatched", () => {
    const engine = createEngine({ events: cassette() });
    const entry = engine.entry(engine.decide(call("frobnicate")), { tMs: 0 });
    expect(entry).toMatchObject({ tool: "frobnicate", outcome: "replayed", synthesized: "permission_denied" });
    expect(engine.summary(0)).toMatchObject({ unmatched: 0, served: 1 });
    const report = runInvariants([entry], { only: ["no-unknown-tools"] });
    const result = report.results.find((r) => r.id === "no-unknown-tools");
    expect(result?.violations.map((v) => v.message)).toEqual([expect.stringContaining("calls frobnicate")]);
  });

  it("takes the tool list from a recorded tools/list when the cassette has one, else the 0.21 catalogue", () => {
    // listed in 0.21 but not by this driver's tools/list
    expect(createEngine({ events: cassette(["list_windows"]) }).decide(call("click")).synthetic).toEqual({ kind: "permission_denied" });
    // listed in 0.21, not recorded: the ordinary unmatched answer
    expect(createEngine({ events: cassette() }).decide(call("click")).outcome).toBe("unmatched");
    // classified by the driver without being listed (Unknown tool / CLI host names): not permission_denied
    expect(createEngine({ events: cassette(["list_windows"]) }).decide(call("type_text_chars")).outcome).toBe("unmatched");
  });

  it("no fault is applied to it and the fault plan's counters do not see it", () => {
    const engine = createEngine({ events: cassette(), faults: { rules: [{ match: { nth: 1 }, fault: { kind: "hang" } }] } });
    expect(engine.decide(call("frobnicate")).fault).toBeUndefined();
    expect(engine.decide(call("list_windows")).fault?.fault.kind).toBe("hang");
  });
});
