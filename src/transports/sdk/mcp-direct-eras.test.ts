import { beforeAll, describe, expect, it } from "vitest";
import { loadSdk } from "#src/runtime/load.js";
import { CLIENT_CAPABILITIES_KEY, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION_KEY } from "#src/transports/mcp/era.js";
import { CAPABILITIES_0_28 } from "#src/transports/mcp/modern-answers.js";
import { createMcpDirectSession, type McpDirectOptions } from "./mcp-direct.js";
import { toolNames } from "./tool-names.js";

// The live runtime 0.28.2 speaks both eras as the 0.28 binary does; 0.21.0 only the legacy one.
let v28: Omit<McpDirectOptions, "send">;
let v21: Omit<McpDirectOptions, "send">;

async function optionsFor(version: string): Promise<Omit<McpDirectOptions, "send">> {
  const driver = await (await loadSdk(version)).CuaDriver.create();
  const [metadata, listToolsJson] = await Promise.all([driver.metadata(), driver.listToolsJson()]);
  return { driver, version: metadata.driverVersion, protocolVersion: metadata.mcpProtocolVersion, listToolsJson, names: toolNames(listToolsJson) };
}

beforeAll(async () => {
  [v28, v21] = await Promise.all([optionsFor("0.28.2"), optionsFor("0.21.0")]);
});

async function converse(options: Omit<McpDirectOptions, "send">, messages: object[]): Promise<string[]> {
  const sent: string[] = [];
  const session = createMcpDirectSession({ ...options, send: (l) => sent.push(l) });
  for (const m of messages) session.line(JSON.stringify({ jsonrpc: "2.0", ...m }));
  await session.drain();
  return sent;
}

const META = { [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION, [CLIENT_CAPABILITIES_KEY]: {} };
const INFO = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"cua-driver","version":"0.28.2"}}';

describe("MCP direct mode: eras", () => {
  it("0.28.2 answers a modern client: server/discover, tools/list and a tool call with the envelope; initialize refused", async () => {
    const [discover, list, config, init, unknown] = await converse(v28, [
      { id: 1, method: "server/discover", params: { _meta: META } },
      { id: 2, method: "tools/list", params: { _meta: META } },
      { id: 3, method: "tools/call", params: { name: "get_config", arguments: {}, _meta: META } },
      { id: 4, method: "initialize", params: { _meta: META } },
      { id: 5, method: "tools/call", params: { name: "frobnicate", arguments: {}, _meta: META } },
    ]);
    expect(discover).toContain(`"capabilities":${CAPABILITIES_0_28}`);
    expect(discover).toMatch(/"supportedVersions":\["2026-07-28"\],"ttlMs":0\}\}$/);
    expect(list).toContain(`{"jsonrpc":"2.0","id":2,"result":{${INFO},"cacheScope":"private",`);
    expect(JSON.parse(config!).result).toMatchObject({ resultType: "complete", structuredContent: { version: "0.28.2" } });
    expect(config).toContain(INFO);
    expect(init).toBe('{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Unknown method: initialize"}}');
    expect(unknown).toBe('{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Unknown tool: frobnicate"}}');
  });

  it("0.28.2 refuses a legacy request before initialize, then serves legacy with 0.28's initialize", async () => {
    const [early, init, config] = await converse(v28, [
      { id: 1, method: "tools/call", params: { name: "get_config", arguments: {} } },
      { id: 2, method: "initialize", params: { protocolVersion: "2025-06-18" } },
      { id: 3, method: "tools/call", params: { name: "get_config", arguments: {} } },
    ]);
    expect(early).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Missing required per-request MCP metadata"}}');
    expect(init).toContain(`{"jsonrpc":"2.0","id":2,"result":{"capabilities":${CAPABILITIES_0_28},"instructions":`);
    expect(init).toContain("skill://cua-driver/SKILL.md");
    expect(config).not.toContain("resultType");
  });

  it("0.21.0 stays legacy-only: server/discover is an unknown method and nothing needs initialize first", async () => {
    const [discover, config] = await converse(v21, [
      { id: 1, method: "server/discover", params: { _meta: META } },
      { id: 2, method: "tools/call", params: { name: "get_config", arguments: {}, _meta: META } },
    ]);
    expect(discover).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Unknown method: server/discover"}}');
    expect(config).not.toContain("resultType");
  });
});

describe("MCP direct mode: skills", () => {
  it("0.28.2 serves the reference skill pack in either era; 0.21.0 does not know the methods", async () => {
    const [listed, read, init, legacyList] = await converse(v28, [
      { id: 1, method: "skills/list", params: { _meta: META } },
      { id: 2, method: "resources/read", params: { uri: "skill://cua-driver/LINUX.md", _meta: META } },
      { id: 3, method: "initialize", params: {} },
      { id: 4, method: "resources/list" },
    ]);
    expect(JSON.parse(listed!).result).toMatchObject({ resultType: "complete", ttlMs: 0, skills: [{ uri: "skill://cua-driver/SKILL.md" }] });
    expect(JSON.parse(read!).result.contents[0]).toMatchObject({ uri: "skill://cua-driver/LINUX.md", mimeType: "text/markdown" });
    expect(init).toContain('"protocolVersion":"2025-06-18"');
    expect(legacyList).toMatch(/^\{"jsonrpc":"2\.0","id":4,"result":\{"resources":\[/);
    const [old] = await converse(v21, [{ id: 1, method: "skills/list", params: { _meta: META } }]);
    expect(old).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Unknown method: skills/list"}}');
  });
});

describe("MCP direct mode over HTTP", () => {
  it("0.28.2 needs no initialize on a connection, answers 0.28's initialize, and names the unknown answer to a modern request", async () => {
    const http = { ...v28, transport: "http" as const };
    const [config, init, discover] = await converse(http, [
      { id: 1, method: "tools/call", params: { name: "get_config", arguments: {} } },
      { id: 2, method: "initialize", params: {} },
      { id: 3, method: "server/discover", params: { _meta: META } },
    ]);
    expect(JSON.parse(config!).result.structuredContent).toMatchObject({ version: "0.28.2" });
    expect(init).toContain(`"capabilities":${CAPABILITIES_0_28}`);
    expect(JSON.parse(discover!).error).toMatchObject({ code: -32603 });
  });
});
