// A live stream asked request by request: its answers go to the request with the same id, in the
// order the requests were sent when a harness reuses an id before the first got its answer.
import { describe, expect, it } from "vitest";
import type { McpIo } from "#src/shim-server/backend.js";
import { pairedMcpStandIn } from "./live-paired.js";

/** A live stream the test answers by hand: what it was sent, and its io to answer with. */
function handStream() {
  const sent: string[] = [];
  let io: McpIo | undefined;
  const standIn = pairedMcpStandIn((given) => {
    io = given;
    return { line: (line) => sent.push(line), end: () => {} };
  });
  const connection = standIn.open();
  return { connection, sent, answer: (line: string) => io!.send(line), exit: (code: number) => io!.exit(code) };
}

/** What a request got, or "still waiting" (a lost waiter would wait for ever). */
const settled = <T>(promise: Promise<T>) => Promise.race([promise, new Promise<string>((resolve) => setTimeout(() => resolve("still waiting"), 200))]);

const request = (id: number, tool: string) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: {} } });
const result = (id: number, text: string) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

describe("a paired live MCP stream", () => {
  it("answers two requests sent with the same id in the order they were sent, each with its own line", async () => {
    const { connection, sent, answer } = handStream();
    const first = connection.send(request(7, "list_windows"));
    const second = connection.send(request(7, "get_screen_size"));
    expect(sent).toHaveLength(2);
    answer(result(7, "windows"));
    answer(result(7, "size"));
    expect(await settled(first)).toEqual({ type: "answer", answer: result(7, "windows") });
    expect(await settled(second)).toEqual({ type: "answer", answer: result(7, "size") });
  });

  it("closes every request still waiting, reused ids included, when the stream exits", async () => {
    const { connection, answer, exit } = handStream();
    const first = connection.send(request(3, "list_windows"));
    const second = connection.send(request(3, "list_windows"));
    const third = connection.send(request(4, "get_screen_size"));
    answer(result(4, "size"));
    exit(1);
    expect(await settled(third)).toEqual({ type: "answer", answer: result(4, "size") });
    expect(await settled(first)).toEqual({ type: "closed", code: 1 });
    expect(await settled(second)).toEqual({ type: "closed", code: 1 });
  });
});
