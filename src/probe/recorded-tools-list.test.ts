import { describe, expect, it } from "vitest";
import type { Cassette } from "#src/cassette/index.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { recordedToolsList } from "./recorded-tools-list.js";

const TOOLS = { tools: [{ name: "click", inputSchema: { type: "object" } }] };

function cassette(events: CassetteEvent[]): Cassette {
  return { events, lines: events.map((_, i) => i + 2) } as unknown as Cassette;
}

const mcp = (seq: number, stream: number, dir: "c2s" | "s2c", message: unknown): CassetteEvent =>
  ({ seq, t_ms: seq, kind: "mcp", stream, dir, line: JSON.stringify(message) }) as CassetteEvent;

describe("recordedToolsList", () => {
  it("pairs the answer with its own stream's tools/list request, not another stream's id", () => {
    const found = recordedToolsList(
      cassette([
        mcp(0, 0, "c2s", { jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
        mcp(1, 1, "c2s", { jsonrpc: "2.0", id: 1, method: "tools/list" }),
        mcp(2, 0, "s2c", { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18" } }),
        mcp(3, 1, "s2c", { jsonrpc: "2.0", id: 1, result: TOOLS }),
      ]),
    );
    expect(found).toEqual({ result: TOOLS, line: 5 });
  });

  it("reads an MCP-over-HTTP exchange, JSON or SSE", () => {
    const http = (body: string): CassetteEvent =>
      ({
        seq: 0,
        t_ms: 0,
        kind: "http",
        duration_ms: 1,
        request: { method: "POST", path: "/mcp", body: '{"jsonrpc":"2.0","id":7,"method":"tools/list"}' },
        response: { status: 200, body },
      }) as CassetteEvent;
    expect(recordedToolsList(cassette([http(JSON.stringify({ jsonrpc: "2.0", id: 7, result: TOOLS }))]))?.result).toEqual(TOOLS);
    expect(recordedToolsList(cassette([http(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 7, result: TOOLS })}\n\n`)]))?.result).toEqual(TOOLS);
  });

  it("finds nothing in a cassette without a tools/list answer (an error answer is none)", () => {
    expect(
      recordedToolsList(
        cassette([
          mcp(0, 0, "c2s", { jsonrpc: "2.0", id: 2, method: "tools/list" }),
          mcp(1, 0, "s2c", { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "boom" } }),
        ]),
      ),
    ).toBeUndefined();
  });
});
