import { describe, expect, it } from "vitest";
import type { CassetteEvent, CliEvent, HttpEvent, McpLineEvent } from "#src/schema/cassette.js";
import {
  answerIn,
  answerOf,
  countedAs,
  createExchangeReader,
  exitOf,
  isToolCall,
  readExchanges,
  requestOf,
  slimEvent,
  storedTextsOf,
  toolOf,
  transportOf,
  type McpExchange,
  type RecordedExchange,
} from "./index.js";
import { idKey, readRpcMessage } from "./rpc-message.js";

let seq = 0;
const cli = (argv: string[], more: Partial<CliEvent> = {}): CliEvent => ({
  seq: seq++,
  t_ms: 0,
  kind: "cli",
  duration_ms: 3,
  argv,
  stdout: '{"ok":true}',
  stderr: "",
  exit_code: 0,
  ...more,
});
const line = (stream: number, dir: "c2s" | "s2c", message: unknown, more: Partial<McpLineEvent> = {}): McpLineEvent => ({
  seq: seq++,
  t_ms: 0,
  kind: "mcp",
  stream,
  dir,
  line: typeof message === "string" ? message : JSON.stringify(message),
  ...more,
});
const open = (stream: number): CassetteEvent => ({ seq: seq++, t_ms: 0, kind: "mcp_open", stream, argv: ["mcp"] });
const close = (stream: number): CassetteEvent => ({ seq: seq++, t_ms: 0, kind: "mcp_close", stream, exit_code: 0 });
const stderr = (stream: number, data: string): CassetteEvent => ({ seq: seq++, t_ms: 0, kind: "mcp_stderr", stream, data });
const http = (body: unknown, response = '{"jsonrpc":"2.0","id":1,"result":{}}'): HttpEvent => ({
  seq: seq++,
  t_ms: 0,
  kind: "http",
  duration_ms: 5,
  request: { method: "POST", path: "/mcp", body: typeof body === "string" ? body : JSON.stringify(body) },
  response: { status: 200, content_type: "application/json", body: response },
});
const call = (id: unknown, name: string) => ({ jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method: "tools/call", params: { name, arguments: {} } });
const result = (id: unknown, value: unknown) => ({ jsonrpc: "2.0", id, result: { structuredContent: value } });

/** What a test compares: transport, seqs, the request's id and method or argv, the answer's id. */
function shape(x: RecordedExchange) {
  switch (x.transport) {
    case "cli":
      return { transport: "cli", seqs: x.seqs, argv: x.request.event.argv, exit: x.answer.event.exit_code };
    case "mcp":
      return {
        transport: "mcp",
        stream: x.stream,
        seqs: x.seqs,
        id: x.request.message.idRaw,
        method: x.request.message.method,
        answered: x.answer?.message.idRaw,
      };
    case "http":
      return { transport: "http", seqs: x.seqs, method: x.request.message?.method, status: x.answer.event.response.status };
  }
}

describe("readExchanges", () => {
  it("reads a per-call CLI event as one exchange, request and answer alike", () => {
    seq = 0;
    const events = [cli(["call", "click", '{"pid":1}']), cli(["list-tools"], { exit_code: 1 })];
    const read = readExchanges(events);
    expect(read.map(shape)).toEqual([
      { transport: "cli", seqs: [0], argv: ["call", "click", '{"pid":1}'], exit: 0 },
      { transport: "cli", seqs: [1], argv: ["list-tools"], exit: 1 },
    ]);
    expect(read.map(toolOf)).toEqual(["click", undefined]);
  });

  it("pairs MCP lines by id on their own stream, across interleaved streams and out-of-order answers", () => {
    seq = 0;
    const events = [
      open(0),
      open(1),
      line(0, "c2s", call(1, "a")), // 2
      line(1, "c2s", call(1, "b")), // 3
      line(0, "c2s", call(2, "c")), // 4
      line(1, "s2c", result(1, "b")), // 5
      line(0, "s2c", result(2, "c")), // 6
      line(0, "s2c", result(1, "a")), // 7
      close(1),
      close(0),
    ];
    const read = readExchanges(events);
    expect(read.map(shape)).toEqual([
      { transport: "mcp", stream: 0, seqs: [2, 7], id: "1", method: "tools/call", answered: "1" },
      { transport: "mcp", stream: 1, seqs: [3, 5], id: "1", method: "tools/call", answered: "1" },
      { transport: "mcp", stream: 0, seqs: [4, 6], id: "2", method: "tools/call", answered: "2" },
    ]);
    expect(read.map(toolOf)).toEqual(["a", "b", "c"]);
    const answer = (read[0] as McpExchange).answer!.message.member("result");
    expect(answer).toEqual({ structuredContent: "a" });
  });

  it("reads a notification as a request with no answer, and leaves an unanswered request without one", () => {
    seq = 0;
    const events = [
      line(0, "c2s", { jsonrpc: "2.0", method: "notifications/initialized" }), // 0
      line(0, "c2s", call(5, "hang")), // 1: never answered
      line(0, "c2s", call(6, "ok")), // 2
      line(0, "s2c", result(6, null)), // 3
    ];
    const read = readExchanges(events);
    expect(read.map(shape)).toEqual([
      { transport: "mcp", stream: 0, seqs: [0], id: undefined, method: "notifications/initialized", answered: undefined },
      { transport: "mcp", stream: 0, seqs: [1], id: "5", method: "tools/call", answered: undefined },
      { transport: "mcp", stream: 0, seqs: [2, 3], id: "6", method: "tools/call", answered: "6" },
    ]);
  });

  it("tells of a response no request asked for, a message from the driver, a reply from the client and a line that is not JSON, and pairs none of them", () => {
    seq = 0;
    const others: { seq: number; id?: string; method?: string; json: boolean }[] = [];
    const requests: number[] = [];
    const reader = createExchangeReader({
      request: (x) => requests.push(x.seqs[0]),
      answer: () => expect.unreachable("nothing here is an answer"),
      other: (o) =>
        others.push({
          seq: o.event.seq,
          ...(o.message?.idRaw ? { id: o.message.idRaw } : {}),
          ...(o.message?.method ? { method: o.message.method } : {}),
          json: o.message !== undefined,
        }),
    });
    const events = [
      line(0, "s2c", result(9, {})), // 0: no request 9
      line(0, "s2c", { jsonrpc: "2.0", id: 1, method: "roots/list" }), // 1: the driver asks
      line(0, "c2s", { jsonrpc: "2.0", id: 1, result: { roots: [] } }), // 2: the client replies
      line(0, "c2s", "not json"), // 3
      line(1, "c2s", call(3, "x")), // 4
      line(0, "s2c", result(3, {})), // 5: id 3 on another stream
    ];
    for (const e of events) reader.add(e, undefined);
    expect(requests).toEqual([4]);
    expect(others).toEqual([
      { seq: 0, id: "9", json: true },
      { seq: 1, id: "1", method: "roots/list", json: true },
      { seq: 2, id: "1", json: true },
      { seq: 3, json: false },
      { seq: 5, id: "3", json: true },
    ]);
    expect(reader.waiting().map((x) => x.seqs)).toEqual([[4]]);
  });

  it("pairs ids by their JSON value, and a later request with the same id takes the pairing over", () => {
    seq = 0;
    const events = [
      line(0, "c2s", '{"jsonrpc":"2.0","id":"\\u0061","method":"tools/list"}'), // 0
      line(0, "s2c", '{"jsonrpc":"2.0","id":"a","result":{"tools":[]}}'), // 1
      line(0, "c2s", '{"jsonrpc":"2.0","id":7.0,"method":"ping"}'), // 2
      line(0, "c2s", '{"jsonrpc":"2.0","id":7,"method":"ping"}'), // 3: same id, still waiting
      line(0, "s2c", '{"jsonrpc":"2.0","id":7,"result":{}}'), // 4
    ];
    expect(readExchanges(events).map((x) => x.seqs)).toEqual([[0, 1], [2], [3, 4]]);
  });

  it("reads an HTTP event as one exchange, and its body's message when it is JSON", () => {
    seq = 0;
    const events = [http(call(1, "screenshot")), http("not json", "oops")];
    const read = readExchanges(events);
    expect(read.map(shape)).toEqual([
      { transport: "http", seqs: [0], method: "tools/call", status: 200 },
      { transport: "http", seqs: [1], method: undefined, status: 200 },
    ]);
    expect(read.map(toolOf)).toEqual(["screenshot", undefined]);
  });

  it("keeps every exchange in the order of its request across transports, and tells stream events apart", () => {
    seq = 0;
    const streams: string[] = [];
    const order: string[] = [];
    const reader = createExchangeReader<number>({
      request: (x) => order.push(`${x.transport}@${x.request.place}`),
      answer: (x) => order.push(`answer@${x.answer!.place}`),
      stream: (e, place) => streams.push(`${e.kind}@${place}`),
    });
    const events = [open(0), cli(["call", "x"]), line(0, "c2s", call(1, "y")), stderr(0, "warn"), http(call(2, "z")), line(0, "s2c", result(1, 0)), close(0)];
    for (const [i, e] of events.entries()) reader.add(e, i + 1);
    expect(order).toEqual(["cli@2", "mcp@3", "http@5", "answer@6"]);
    expect(streams).toEqual(["mcp_open@1", "mcp_stderr@4", "mcp_close@7"]);
    expect(events.map(transportOf)).toEqual(["mcp", "cli", "mcp", "mcp", "http", "mcp", "mcp"]);
  });

  it("tells of an exchange once its answer is read: CLI and HTTP with their request, MCP with its response", () => {
    seq = 0;
    const whole: string[] = [];
    const reader = createExchangeReader<number>({ whole: (x) => whole.push(`${x.transport}@${x.seqs.join("+")}`) });
    const events = [cli(["call", "x"]), line(0, "c2s", call(1, "y")), line(0, "c2s", call(2, "never")), http(call(3, "z")), line(0, "s2c", result(1, 0))];
    for (const [i, e] of events.entries()) reader.add(e, i);
    expect(whole).toEqual(["cli@0", "http@3", "mcp@1+4"]);
  });

  it("asks each transport's reading for the tool, the call, the count, the exit, and the request and answer in their encodings", () => {
    seq = 0;
    const events = [
      cli(["call", "click", '{"pid":1}'], { exit_code: 2, stdout: "out", stderr: "err" }), // 0
      cli(["--version"], { origin: "recorder" }), // 1
      cli(["list_apps"], { signal: "SIGKILL", exit_code: null }), // 2: an implicit call
      line(0, "c2s", call(1, "type")), // 3
      line(0, "c2s", { jsonrpc: "2.0", method: "tools/call", params: { name: "n" } }), // 4: a notification
      line(0, "s2c", result(1, "typed"), { origin: "recorder" }), // 5
      http(call(7, "screenshot"), "data: {}"), // 6
      http(call(8, "click"), "{}"), // 7
    ];
    events[7] = { ...(events[7] as HttpEvent), origin: "recorder", response: { status: 500, body: "{}" } };
    const read = readExchanges(events);
    expect(read.map(isToolCall)).toEqual([true, false, true, true, false, true, true]);
    expect(read.map(countedAs)).toEqual(["click", undefined, "list_apps", "type", "n", "screenshot", undefined]);
    expect(read.map(exitOf)).toEqual(["2", "0", "signal:SIGKILL", undefined, undefined, undefined, undefined]);
    expect(requestOf(read[0]!)).toEqual({ form: "argv", argv: ["call", "click", '{"pid":1}'], stdin: undefined });
    expect((requestOf(read[3]!) as { message: { tool?: string } }).message.tool).toBe("type");
    expect(requestOf(readExchanges([http("not json")])[0]!)).toBeUndefined();
    expect(answerOf(read[0]!)).toEqual({ form: "output", stdout: "out", stderr: "err", exitCode: 2, signal: undefined, origin: "harness" });
    expect(answerOf(read[3]!)).toEqual({ form: "rpc", body: JSON.stringify(result(1, "typed")), status: undefined, origin: "recorder" });
    expect(answerOf(read[4]!)).toBeUndefined();
    expect(answerOf(read[5]!)).toEqual({ form: "rpc", body: "data: {}", status: 200, origin: "harness" });
    expect(answerOf(read[6]!)).toEqual({ form: "rpc", body: "{}", status: 500, origin: "recorder" });
    expect(answerIn(events[5]!)).toEqual(answerOf(read[3]!));
    expect(answerIn(open(0))).toBeUndefined();
  });

  it("keeps of each event only what tells a tool call and pairs an answer", () => {
    seq = 0;
    const events = [
      cli(["call", "x"], { stdout: "big", stdin: "{}" }),
      line(0, "c2s", call(1, "y")),
      line(0, "s2c", result(1, "big")),
      line(0, "s2c", "not json"),
      http(call(2, "z"), "big"),
      open(1),
    ];
    expect(events.map(slimEvent)).toEqual([
      { kind: "cli", seq: 0, t_ms: 0, argv: ["call", "x"], stdout: "", stderr: "", exit_code: 0, duration_ms: 0 },
      { ...events[1], line: '{"id":1,"method":"tools/call"}' },
      { ...events[2], line: '{"id":1}' },
      { ...events[3], line: "" },
      {
        ...events[4],
        request: { ...(events[4] as HttpEvent).request, body: '{"method":"tools/call"}' },
        response: { ...(events[4] as HttpEvent).response, body: "" },
      },
      events[5],
    ]);
    // the slim events read as the whole ones do
    expect(readExchanges(events.map(slimEvent)).map((x) => [x.seqs, isToolCall(x)])).toEqual(readExchanges(events).map((x) => [x.seqs, isToolCall(x)]));
  });

  it("reads lines through the caller's text, and decodes base64-stored lines by default", () => {
    seq = 0;
    const text = JSON.stringify(call(1, "é"));
    const stored = line(0, "c2s", "", { line: { encoding: "base64", data: Buffer.from(text, "utf8").toString("base64") } });
    expect(readExchanges([stored]).map(toolOf)).toEqual(["é"]);
    const seen: string[] = [];
    const read = readExchanges([line(0, "c2s", call(1, "a"))], {
      text: (e, field) => {
        seen.push(`${e.kind}:${field}`);
        return JSON.stringify(call(1, "restored"));
      },
    });
    for (const x of read) seen.push(toolOf(x) ?? "(none)");
    expect(seen).toEqual(["mcp:line", "restored"]);
  });

  it("leaves the driver's lines unread when asked for the requests alone", () => {
    seq = 0;
    const others: (string | undefined)[] = [];
    const requests: (string | undefined)[] = [];
    const reader = createExchangeReader(
      {
        request: (x) => requests.push(toolOf(x)),
        answer: () => expect.unreachable("no answer is read"),
        other: (o) => others.push(o.message?.idRaw),
      },
      { answers: false },
    );
    for (const e of [line(0, "c2s", call(1, "a")), line(0, "s2c", result(1, {})), cli(["call", "b"])]) reader.add(e, undefined);
    expect(requests).toEqual(["a", "b"]);
    expect(others).toEqual([undefined]);
    expect(reader.waiting()).toEqual([]);
  });

  it("lists every stored text of each event kind", () => {
    seq = 0;
    expect(storedTextsOf(cli(["call", "a"], { stdin: "in", stdout: "out", stderr: "err" }))).toEqual(["call", "a", "in", "out", "err"]);
    expect(storedTextsOf(line(0, "s2c", "x"))).toEqual(["x"]);
    expect(storedTextsOf(stderr(0, "e"))).toEqual(["e"]);
    expect(storedTextsOf(http("b", "r"))).toEqual(["b", "r"]);
    expect(storedTextsOf(open(0))).toEqual([]);
    expect(storedTextsOf(close(0))).toEqual([]);
  });
});

describe("RpcMessage", () => {
  it("reads id and method by spans and other members when asked", () => {
    const m = readRpcMessage('{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"t","arguments":{"x":1}}}')!;
    expect(m.idRaw).toBe("null");
    expect(m.method).toBe("tools/call");
    expect(m.tool).toBe("t");
    expect(m.member("params")).toEqual({ name: "t", arguments: { x: 1 } });
    expect(m.member("result")).toBeUndefined();
    expect(m.isResponse).toBe(false);
    expect(readRpcMessage("[1]")).toBeUndefined();
    expect(readRpcMessage('{"id":1,"result":{}}')!.isResponse).toBe(true);
  });

  it("keys ids by their JSON value", () => {
    expect(idKey("1")).toBe("1");
    expect(idKey("1.0")).toBe("1");
    expect(idKey('"\\u0061"')).toBe('"a"');
    expect(idKey('"a"')).toBe('"a"');
    expect(idKey("1e2")).toBe("100");
  });
});
