import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSdk } from "#src/runtime/load.js";
import { mountMcpStdio } from "#src/shim-server/mcp-stdio.js";
import { answer, type McpDirectOptions } from "./mcp-direct.js";
import { sdkMcpStandIn } from "./stand-in.js";
import { toolNames } from "./tool-names.js";

const oracles = new URL("../../../test/fixtures/sdk-oracles/", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, oracles), "utf8");

let options: Omit<McpDirectOptions, "send">;

beforeAll(async () => {
  const driver = await (await loadSdk("0.21.0")).CuaDriver.create();
  const [metadata, listToolsJson] = await Promise.all([driver.metadata(), driver.listToolsJson()]);
  options = { driver, version: metadata.driverVersion, protocolVersion: metadata.mcpProtocolVersion, listToolsJson, names: toolNames(listToolsJson) };
});

describe("MCP direct mode over the 0.21.0 runtime", () => {
  it("initialize answers the reconstructed Linux bytes, whatever protocol the client asks for", async () => {
    const line = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}';
    expect(`${await answer(options, line)}\n`).toBe(read("initialize.linux.response.jsonl"));
  });

  it("tools/list is the runtime inventory, unchanged", async () => {
    const reply = await answer(options, '{"jsonrpc":"2.0","id":"a","method":"tools/list"}');
    expect(reply).toBe(`{"jsonrpc":"2.0","id":"a","result":${read("captured/tools-list-0.21.0.json")}}`);
  });

  const examples = (JSON.parse(read("error-responses.examples.json")) as { note: string; request_line: string; response_line: string | null }[]).filter(
    (e) => !e.note.startsWith("proxy MCP") && !e.response_line?.includes("<DriverError text>"),
  );
  it.each(examples.map((e) => [e.note, e] as const))("%s", async (_note, example) => {
    expect((await answer(options, example.request_line)) ?? null).toBe(example.response_line);
  });

  it("an SDK invoke error becomes isError with exit_code 1", async () => {
    const reply = await answer(options, '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"get_config","arguments":[1]}}');
    expect(reply).toBe(
      '{"jsonrpc":"2.0","id":10,"result":{"content":[{"text":"invalid arguments for get_config: arguments must be a JSON object","type":"text"}],"isError":true,"structuredContent":{"exit_code":1}}}',
    );
  });

  it("tools/call returns the runtime's result bytes and answers one request at a time, in order, mounted on stdio", async () => {
    const sent: string[] = [];
    const exited = new Promise<number | null>((resolve) => {
      const session = mountMcpStdio(sdkMcpStandIn(options).open(), { send: (l) => sent.push(l), stderr: () => {}, exit: resolve });
      session.line('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_config","arguments":{"_session_id":"x"}}}');
      session.line('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      session.line("");
      session.line('{"jsonrpc":"2.0","id":2,"method":"ping"}');
      session.end();
    });
    expect(await exited).toBe(0);
    const direct = await options.driver.callTool("get_config", "{}");
    expect(sent).toEqual([
      `{"jsonrpc":"2.0","id":1,"result":${direct.rawJson}}`,
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Unknown method: ping"}}',
    ]);
  });

  it("stops asking and answering once the shim is gone", async () => {
    const sent: string[] = [];
    let exits = 0;
    const session = mountMcpStdio(sdkMcpStandIn(options).open(), { send: (l) => sent.push(l), stderr: () => {}, exit: () => exits++ }, { stopWhenGone: true });
    session.line('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    session.gone?.();
    session.line('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    session.end();
    await new Promise((r) => setTimeout(r, 100));
    expect([sent, exits]).toEqual([[], 0]);
  });
});
