import { describe, expect, it } from "vitest";
import {
  CLIENT_CAPABILITIES_KEY,
  classifyRequest,
  createEraSession,
  type EraRequest,
  finishModernLine,
  finishModernResult,
  legacyLine,
  MODERN_PROTOCOL_VERSION,
  PROTOCOL_VERSION_KEY,
  protocolErrorLine,
  speaksModern,
  withoutProtocolMeta,
} from "./era.js";

// The cases of the driver's own tests in mcp_wire.rs (trycua/cua 4d6f4a55), one `it` each.
const request = (method: string, meta: unknown, idRaw = "1"): EraRequest => ({ jsonrpc: "2.0", idRaw, method, params: { _meta: meta } });
const modernMeta = () => ({ [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION, [CLIENT_CAPABILITIES_KEY]: {} });
const refusal = (d: ReturnType<typeof classifyRequest>) =>
  "refusal" in d ? (JSON.parse(d.refusal) as { id: unknown; error: { code: number; message: string; data?: unknown } }) : undefined;

describe("the era of a request (classify_request, ProtocolSession)", () => {
  it("modern_versions_and_capabilities_are_validated_per_request", () => {
    const session = createEraSession();
    expect(session.decide(request("ping", modernMeta()))).toEqual({ era: "modern" });
    for (const meta of [
      {},
      { [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION },
      { [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION, [CLIENT_CAPABILITIES_KEY]: [] },
    ]) {
      expect(refusal(session.decide(request("ping", meta)))?.error.code).toBe(-32602);
    }
    const unsupported = session.decide(request("ping", { [PROTOCOL_VERSION_KEY]: "unknown", [CLIENT_CAPABILITIES_KEY]: {} }));
    expect(unsupported).toEqual({
      refusal:
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"unknown","supported":["2026-07-28"]}}}',
    });
  });

  it("only_legacy_initialize_enables_metadata_free_requests", () => {
    const session = createEraSession();
    const legacy = request("ping", {});
    expect(session.decide(legacy)).toEqual({
      refusal: '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Missing required per-request MCP metadata"}}',
    });
    expect(session.decide(request("initialize", {}))).toEqual({ era: "legacy" });
    expect(session.legacyInitialized).toBe(true);
    expect(session.decide(legacy)).toEqual({ era: "legacy" });
    // the modern keys are validated as modern even after a legacy initialize
    expect(refusal(session.decide(request("ping", { [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION })))?.error).toEqual({
      code: -32602,
      message: "Missing or invalid MCP clientCapabilities metadata",
    });
  });

  it("modern_invalid_jsonrpc_envelopes_are_rejected (id null, -32600)", () => {
    for (const [jsonrpc, idRaw] of [
      ["1.0", "1"],
      ["2.0", "true"],
      ["2.0", "1.5"],
      ["2.0", "{}"],
    ] as const) {
      const d = classifyRequest({ jsonrpc, idRaw, method: "ping", params: { _meta: modernMeta() } });
      expect(d).toEqual({ refusal: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid JSON-RPC request"}}' });
    }
    expect(refusal(classifyRequest({ jsonrpc: "2.0", idRaw: "1", method: "server/discover", params: [] }))?.error).toEqual({
      code: -32602,
      message: "MCP params must be an object",
    });
  });

  it("legacy_errors_omit_optional_data", () => {
    expect(protocolErrorLine("1", -32602, "invalid")).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid"}}');
  });

  it("server/discover is always modern: without metadata it is -32602, never -32601", () => {
    expect(refusal(classifyRequest({ jsonrpc: "2.0", idRaw: '"p-1"', method: "server/discover", params: {} }))).toEqual({
      jsonrpc: "2.0",
      id: "p-1",
      error: { code: -32602, message: "Missing or invalid MCP protocolVersion metadata" },
    });
    expect(refusal(classifyRequest({ jsonrpc: "2.0", idRaw: "3", method: "server/discover", params: undefined }))?.error.message).toBe(
      "MCP params must be an object",
    );
  });

  it("a _meta that is not an object is refused on a legacy request; a legacy initialize with a modern protocolVersion param stays legacy", () => {
    expect(refusal(classifyRequest({ jsonrpc: "2.0", idRaw: "4", method: "tools/list", params: { _meta: null } }))?.error).toEqual({
      code: -32602,
      message: "MCP _meta must be an object",
    });
    expect(classifyRequest({ jsonrpc: "2.0", idRaw: "5", method: "initialize", params: { protocolVersion: MODERN_PROTOCOL_VERSION } })).toEqual({
      era: "legacy",
    });
    expect(classifyRequest({ jsonrpc: "2.0", idRaw: "6", method: "initialize", params: { _meta: modernMeta() } })).toEqual({ era: "modern" });
  });

  it("a version key whose value is null counts as present (modern) and is refused as invalid", () => {
    expect(refusal(classifyRequest(request("tools/list", { [PROTOCOL_VERSION_KEY]: null })))?.error.message).toBe(
      "Missing or invalid MCP protocolVersion metadata",
    );
  });

  it("ids: strings and 64-bit integers are valid, larger integers are not", () => {
    expect(classifyRequest(request("ping", modernMeta(), '"a"'))).toEqual({ era: "modern" });
    expect(classifyRequest(request("ping", modernMeta(), "18446744073709551615"))).toEqual({ era: "modern" });
    expect("refusal" in classifyRequest(request("ping", modernMeta(), "18446744073709551616"))).toBe(true);
    expect("refusal" in classifyRequest(request("ping", modernMeta(), "1e2"))).toBe(true);
  });
});

describe("the modern result envelope (finish_response)", () => {
  const INFO = '{"io.modelcontextprotocol/serverInfo":{"name":"cua-driver","version":"0.28.2"}}';

  it("modern_discovery_and_tool_envelopes_follow_canonical_shapes: tools/call gains _meta and resultType only, structuredContent untouched", () => {
    const raw = '{"content":[],"structuredContent":{"resultType":"domain-value","private":[1,2]}}';
    expect(finishModernResult(raw, "tools/call", "0.28.2")).toBe(
      `{"_meta":${INFO},"content":[],"resultType":"complete","structuredContent":{"resultType":"domain-value","private":[1,2]}}`,
    );
  });

  it("server/discover, */list and */read carry ttlMs and cacheScope in sorted key position; skills/get and ping do not", () => {
    expect(finishModernResult('{"supportedVersions":["2026-07-28"]}', "server/discover", "0.28.2")).toBe(
      `{"_meta":${INFO},"cacheScope":"private","resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":0}`,
    );
    expect(finishModernResult('{"capability_version":"1","schema_version":"1","tools":[]}', "tools/list", "0.28.2")).toBe(
      `{"_meta":${INFO},"cacheScope":"private","capability_version":"1","resultType":"complete","schema_version":"1","tools":[],"ttlMs":0}`,
    );
    expect(finishModernResult("{}", "ping", "0.28.2")).toBe(`{"_meta":${INFO},"resultType":"complete"}`);
    expect(finishModernResult('{"skill":{}}', "skills/get", "0.28.2")).toBe(`{"_meta":${INFO},"resultType":"complete","skill":{}}`);
  });

  it("keeps other _meta keys, replaces a _meta that is not an object, and finishing twice changes nothing", () => {
    expect(finishModernResult('{"_meta":{"a":1,"z":2},"content":[]}', "tools/call", "0.28.2")).toBe(
      '{"_meta":{"a":1,"io.modelcontextprotocol/serverInfo":{"name":"cua-driver","version":"0.28.2"},"z":2},"content":[],"resultType":"complete"}',
    );
    expect(finishModernResult('{"_meta":7,"content":[]}', "tools/call", "0.28.2")).toBe(`{"_meta":${INFO},"content":[],"resultType":"complete"}`);
    const once = finishModernResult('{"tools":[]}', "tools/list", "0.28.2");
    expect(finishModernResult(once, "tools/list", "0.28.2")).toBe(once);
  });

  it("finishes result lines and leaves error lines alone", () => {
    expect(finishModernLine('{"jsonrpc":"2.0","id":"x","result":{}}', "ping", "0.28.2")).toBe(
      `{"jsonrpc":"2.0","id":"x","result":{"_meta":${INFO},"resultType":"complete"}}`,
    );
    const error = '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Unknown method: x"}}';
    expect(finishModernLine(error, "x", "0.28.2")).toBe(error);
  });
});

describe("a modern-era recorded line served to a legacy request", () => {
  it("loses exactly the envelope finish_response added", () => {
    for (const [method, result] of [
      ["tools/list", '{"capability_version":"1","tools":[{"name":"a"}]}'],
      ["tools/call", '{"_meta":{"a":1},"content":[],"isError":true,"structuredContent":{"resultType":"x"}}'],
      ["ping", "{}"],
    ] as const) {
      const line = `{"jsonrpc":"2.0","id":7,"result":${result}}`;
      const modern = finishModernLine(line, method, "0.28.2");
      expect(modern).not.toBe(line);
      expect(legacyLine(modern)).toBe(line);
      expect(legacyLine(line)).toBe(line);
    }
  });
});

describe("era helpers", () => {
  it("0.28.0 and later speak the modern era; 0.21.0 and 0.27.x do not", () => {
    expect([speaksModern("0.21.0"), speaksModern("0.27.9"), speaksModern("0.28.0"), speaksModern("0.28.2"), speaksModern("0.37.0")]).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it("a request's identity drops the protocol _meta only", () => {
    expect(withoutProtocolMeta({ _meta: modernMeta(), name: "list_windows", arguments: {} })).toEqual({ name: "list_windows", arguments: {} });
    expect(withoutProtocolMeta([1])).toEqual([1]);
  });
});
