import { describe, expect, it } from "vitest";
import { createRedactor } from "#src/cassette/redact.js";
import type { CassetteEventInput } from "#src/cassette/writer.js";
import { recordHttpExchange } from "#src/transports/http/exchange-recording.js";
import { openMcpStreamRecording } from "./stream-recording.js";
import type { RecordingSink } from "#src/cassette/recording-sink.js";

function memorySink() {
  const events: CassetteEventInput[] = [];
  const sink: RecordingSink = {
    dir: "/nowhere",
    append: (e) => events.push(e) - 1,
    putFrame: () => {
      throw new Error("no frames expected");
    },
    header: () => undefined,
    close: () => {},
  };
  return { sink, events };
}

const call = (id: number, name: string, args: object) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const result = (id: number, structuredContent: object) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [], structuredContent } });

describe("secrets learned from MCP messages (stdio streams and HTTP alike)", () => {
  it("a stream learns typed text from a call and clipboard text from the answer to that call's id, not another's", () => {
    const { sink, events } = memorySink();
    const rec = openMcpStreamRecording({ sink, redactor: createRedactor({ enabled: true }), clock: () => 0, stream: 1, argv: ["mcp"] });
    rec.line("c2s", call(1, "type_text", { text: "typed secret" }));
    rec.line("c2s", call(2, "clipboard_read", {}));
    rec.line("c2s", call(3, "get_config", {}));
    rec.line("s2c", result(3, { text: "config text" }));
    rec.line("s2c", result(2, { text: "clipboard secret" }));
    rec.line("s2c", result(9, { note: "typed secret and clipboard secret" }));
    const lines = events.filter((e) => e.kind === "mcp").map((e) => (e as { line: string }).line);
    expect(lines[0]).toMatch(/"text":"«redacted:text:[0-9a-f]{8}»"/);
    expect(lines[3]).toContain('"text":"config text"');
    expect(lines[4]).toMatch(/"text":"«redacted:clipboard:[0-9a-f]{8}»"/);
    expect(lines[5]).toMatch(
      /^\{"jsonrpc":"2.0","id":9,"result":\{"content":\[\],"structuredContent":\{"note":"«redacted:text:[0-9a-f]{8}» and «redacted:clipboard:[0-9a-f]{8}»"\}\}\}$/,
    );
  });

  it("an HTTP exchange learns from its request and from its own answer; with redaction off nothing is learned", () => {
    for (const enabled of [true, false]) {
      const { sink, events } = memorySink();
      const parts = { sink, redactor: createRedactor({ enabled }), clock: () => 0, tokens: new Set<string>() };
      const exchange = (request: string, response: string) =>
        recordHttpExchange({
          ...parts,
          exchange: {
            startMs: 0,
            durationMs: 0,
            method: "POST",
            path: "/mcp",
            requestBody: Buffer.from(request),
            status: 200,
            responseBody: Buffer.from(response),
          },
        });
      exchange(call(1, "clipboard_read", {}), result(1, { text: "clipboard secret" }));
      exchange(call(2, "set_value", { value: "value secret" }), result(2, { ok: true }));
      exchange(call(3, "get_config", {}), result(3, { text: "config text" }));
      const bodies = events.map(
        (e) => JSON.stringify((e as { request: unknown; response: unknown }).request) + JSON.stringify((e as { response: unknown }).response),
      );
      if (enabled) {
        expect(bodies[0]).toMatch(/«redacted:clipboard:[0-9a-f]{8}»/);
        expect(bodies[0]).not.toContain("clipboard secret");
        expect(bodies[1]).toMatch(/«redacted:value:[0-9a-f]{8}»/);
        expect(bodies[1]).not.toContain("value secret");
      } else {
        expect(bodies[0]).toContain("clipboard secret");
        expect(bodies[1]).toContain("value secret");
      }
      expect(bodies[2]).toContain("config text");
    }
  });
});
