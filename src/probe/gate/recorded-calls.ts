import { parseDriverArgv, type Cassette } from "../../cassette/index.js";
import type { CassetteEvent } from "../../schema/cassette.js";
import { eventText, isObject, jsonOrUndefined } from "../event-json.js";

/** One tool call found in a recording: what was sent and, when structured, what came back. */
export interface RecordedCall {
  cassette: string;
  /** The event's `seq` (the request's event for MCP/HTTP). */
  event: number;
  /** 1-based line in cassette.jsonl. */
  line: number;
  tool: string;
  transport: "cli" | "mcp" | "http";
  /** The arguments object sent; undefined when they were not JSON. */
  args?: unknown;
  /** structuredContent of the answer; undefined when the answer had none. */
  output?: unknown;
  /** Where the output came from: its own event. */
  outputEvent?: number;
}

/**
 * Every tool call in a cassette. Images cut out at record time are left out: they sit inside
 * JSON strings, so the text stays valid JSON and nothing needs the frame files.
 */
export function recordedCalls(cassette: Cassette, name: string): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const pending = new Map<string, RecordedCall>();
  cassette.events.forEach((event, index) => {
    const line = cassette.lines[index] ?? 0;
    if (event.kind === "cli") {
      const call = cliCall(event, name, line);
      if (call) calls.push(call);
    } else if (event.kind === "mcp") {
      const msg = jsonOrUndefined(eventText(event, "line"));
      if (!isObject(msg)) return;
      const key = `${event.stream}:${JSON.stringify(msg.id)}`;
      if (event.dir === "c2s" && msg.method === "tools/call" && isObject(msg.params) && typeof msg.params.name === "string") {
        const call: RecordedCall = { cassette: name, event: event.seq, line, tool: msg.params.name, transport: "mcp", args: msg.params.arguments ?? {} };
        calls.push(call);
        pending.set(key, call);
      } else if (event.dir === "s2c" && pending.has(key)) {
        const call = pending.get(key)!;
        pending.delete(key);
        if (isObject(msg.result) && msg.result.structuredContent !== undefined) {
          call.output = msg.result.structuredContent;
          call.outputEvent = event.seq;
        }
      }
    } else if (event.kind === "http") {
      const req = jsonOrUndefined(eventText(event, "request.body"));
      if (!isObject(req) || req.method !== "tools/call" || !isObject(req.params) || typeof req.params.name !== "string") return;
      const call: RecordedCall = { cassette: name, event: event.seq, line, tool: req.params.name, transport: "http", args: req.params.arguments ?? {} };
      const res = jsonOrUndefined(eventText(event, "response.body"));
      if (isObject(res) && isObject(res.result) && res.result.structuredContent !== undefined) {
        call.output = res.result.structuredContent;
        call.outputEvent = event.seq;
      }
      calls.push(call);
    }
  });
  return calls;
}

function cliCall(event: Extract<CassetteEvent, { kind: "cli" }>, name: string, line: number): RecordedCall | undefined {
  const argv = parseDriverArgv(event.argv);
  if (argv.subcommand !== "call" || !argv.tool) return undefined;
  const call: RecordedCall = { cassette: name, event: event.seq, line, tool: argv.tool, transport: "cli" };
  if (argv.json !== undefined) {
    // A positional that is not JSON never reaches the driver (exit 2): nothing to check.
    const args = jsonOrUndefined(argv.json);
    if (args !== undefined) call.args = args;
  } else {
    // The CLI reads a missing or invalid stdin as {} (CONTRACT.md §1.6).
    const stdin = eventText(event, "stdin");
    call.args = (stdin.trim() === "" ? {} : jsonOrUndefined(stdin)) ?? {};
  }
  if (event.exit_code === 0) {
    const out = jsonOrUndefined(eventText(event, "stdout"));
    if (isObject(out)) {
      // `call` merges the last image into the printed structuredContent under these names (CONTRACT.md §0.3).
      const { screenshot_png_b64: _b64, ...rest } = out;
      call.output = "screenshot_png_b64" in out ? rest : out;
      call.outputEvent = event.seq;
    }
  }
  return call;
}
