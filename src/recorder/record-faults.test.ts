import { answering } from "../../test/helpers/answering.js";
import { describe, expect, it } from "vitest";
import { createRedactor } from "#src/cassette/redact.js";
import type { CassetteEventInput } from "#src/cassette/writer.js";
import type { CliRequest } from "#src/shim-server/backend.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import { recordCliCall } from "#src/transports/cli/tap.js";
import { createMcpRelay } from "#src/transports/mcp/tap-relay.js";
import { openMcpStreamRecording } from "#src/transports/mcp/stream-recording.js";
import { createRecordFaults, keepingEvents } from "#src/transports/recording/record-faults.js";
import type { RecordingSink } from "#src/cassette/recording-sink.js";

function memorySink(): RecordingSink & { events: CassetteEventInput[] } {
  const events: CassetteEventInput[] = [];
  return {
    dir: "/nowhere",
    events,
    append: (e) => events.push(e) - 1,
    putFrame: () => "frames/0000000000000000000000000000000000000000000000000000000000000000.png",
    header: () => undefined,
    close: () => {},
  };
}

const plan = (fault: FaultPlan["rules"][number]["fault"], tool = "click"): FaultPlan => ({ rules: [{ match: { tool, nth: 1 }, fault }] });
const CLICK = ["call", "click", '{"pid":1,"window_id":2,"element_token":"s00000001:3"}'];
const ACTION = '{\n  "effect": "unverifiable"\n}\n';

function parts(fault: FaultPlan, driverVersion?: string) {
  const base = memorySink();
  const kept = keepingEvents(base);
  return {
    base,
    sink: kept.sink,
    redactor: createRedactor({ enabled: true }),
    clock: () => 0,
    faults: createRecordFaults({ plan: fault, events: kept.events, ...(driverVersion ? { driverVersion } : {}) }),
  };
}

function cliRequest(argv: string[], signal = new AbortController().signal): CliRequest {
  return { argv, stdin: Buffer.alloc(0), cwd: "/", env: { HOME: "/home/u" }, signal };
}

describe("record --faults, per-call CLI", () => {
  it("timeout_after_effect forwards the call, records the real answer, and withholds it until the harness gives up", async () => {
    const p = parts(plan({ kind: "timeout_after_effect" }));
    let calls = 0;
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    const response = await recordCliCall({
      ...p,
      request: cliRequest(CLICK, abort.signal),
      live: answering(async () => {
        calls++;
        return { response: { stdout: Buffer.from(ACTION), stderr: Buffer.alloc(0), exitCode: 0 }, recorded: true };
      }),
    });
    expect(calls).toBe(1);
    expect(response).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(response.stdout.length).toBe(0);
    expect(p.base.events).toEqual([
      expect.objectContaining({ kind: "cli", stdout: ACTION, exit_code: 0, fault: { kind: "timeout_after_effect", rule: 0, forwarded: true } }),
    ]);
  });

  it("daemon_died_midcall never reaches the driver and records what the harness got", async () => {
    const p = parts(plan({ kind: "daemon_died_midcall" }));
    let calls = 0;
    const response = await recordCliCall({
      ...p,
      request: cliRequest(CLICK),
      live: answering(async () => {
        calls++;
        throw new Error("must not be called");
      }),
    });
    expect(calls).toBe(0);
    const stderr = "Cua Driver daemon request on /home/u/.cache/cua-driver/cua-driver.sock failed: daemon closed connection without response\n";
    expect([response.stdout.toString(), response.stderr.toString(), response.exitCode]).toEqual(["", stderr, 1]);
    expect(p.base.events).toEqual([expect.objectContaining({ stderr, exit_code: 1, fault: { kind: "daemon_died_midcall", rule: 0, forwarded: false } })]);
  });

  it("counts only the harness's tool calls: a read, the recorder's own calls and a second click go through", async () => {
    const p = parts(plan({ kind: "empty" }));
    const answer = async () => ({ response: { stdout: Buffer.from(ACTION), stderr: Buffer.alloc(0), exitCode: 0 }, recorded: true });
    await recordCliCall({ ...p, origin: "recorder", request: cliRequest(["--version"]), live: answering(answer) });
    await recordCliCall({ ...p, request: cliRequest(["call", "list_windows", "{}"]), live: answering(answer) });
    const first = await recordCliCall({ ...p, request: cliRequest(CLICK), live: answering(answer) });
    const second = await recordCliCall({ ...p, request: cliRequest(CLICK), live: answering(answer) });
    expect(p.base.events.map((e) => ("fault" in e ? e.fault?.kind : undefined))).toEqual([undefined, undefined, "empty", undefined]);
    expect(first.stdout.toString()).not.toBe(ACTION);
    expect(second.stdout.toString()).toBe(ACTION);
  });
});

describe("record --faults, MCP stdio", () => {
  const call = (id: number, name: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{}}}`;
  const result = (id: number) =>
    `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"text":"ok","type":"text"}],"structuredContent":{"effect":"unverifiable"}}}`;

  function relay(fault: FaultPlan, driverVersion?: string) {
    const p = parts(fault, driverVersion);
    const toHarness: string[] = [];
    const toDriver: string[] = [];
    const died: number[] = [];
    const r = createMcpRelay({
      recording: openMcpStreamRecording({ ...p, stream: 0, argv: ["mcp"] }),
      stream: 0,
      toHarness: (l) => toHarness.push(l),
      toDriver: (l) => toDriver.push(l),
      die: (code) => died.push(code),
      faults: p.faults,
    });
    return { r, p, toHarness, toDriver, died };
  }

  it("a hang that took effect forwards the call, records the answer, and leaves the stream stuck", async () => {
    const t = relay(plan({ kind: "timeout_after_effect" }));
    t.r.fromHarness(call(1, "click"));
    t.r.fromDriver(result(1));
    t.r.fromHarness(call(2, "list_windows"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(t.toDriver).toEqual([call(1, "click")]);
    expect(t.toHarness).toEqual([]);
    expect(t.r.stuck()).toBe(true);
    const lines = t.p.base.events.filter((e) => e.kind === "mcp");
    expect(lines.map((e) => [e.dir, "fault" in e ? e.fault?.forwarded : undefined])).toEqual([
      ["c2s", true],
      ["s2c", undefined],
      ["c2s", undefined],
    ]);
  });

  it("a death before the effect ends the stream as direct mode does (exit 101), the driver never asked", async () => {
    const t = relay(plan({ kind: "daemon_died_midcall" }, "list_windows"));
    t.r.fromHarness(call(1, "list_windows"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect([t.toDriver, t.toHarness, t.died]).toEqual([[], [], [101]]);
  });

  it("a refusal is answered by the recorder in the driver's envelope; later calls pass through", async () => {
    const t = relay(plan({ kind: "refusal", code: "stale_element_token" }));
    t.r.fromHarness(call(7, "click"));
    t.r.fromHarness(call(8, "click"));
    t.r.fromDriver(result(8));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(t.toDriver).toEqual([call(8, "click")]);
    expect(t.toHarness[0]).toMatch(/^\{"jsonrpc":"2.0","id":7,"result":\{.*"isError":true.*"stale_element_token"/);
    expect(t.toHarness[1]).toBe(result(8));
  });

  describe("from 0.28, in the era of each request (as the replay renders it)", () => {
    const META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
    const modernCall = (id: number, name: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{},${META}}}`;
    const INITIALIZE = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}';
    const flushed = () => new Promise((resolve) => setTimeout(resolve, 10));

    it("a result fault on a modern request gets the modern envelope; on a legacy one, or before 0.28, it does not", async () => {
      const modern = relay(plan({ kind: "refusal", code: "stale_element_token" }), "0.28.2");
      modern.r.fromHarness(modernCall(7, "click"));
      const legacy = relay(plan({ kind: "refusal", code: "stale_element_token" }), "0.28.2");
      legacy.r.fromHarness(INITIALIZE);
      legacy.r.fromHarness(call(7, "click"));
      const older = relay(plan({ kind: "refusal", code: "stale_element_token" }), "0.21.0");
      older.r.fromHarness(modernCall(7, "click"));
      await flushed();
      expect(older.toHarness).toEqual(legacy.toHarness);
      expect(modern.toHarness[0]).toMatch(
        /^\{"jsonrpc":"2.0","id":7,"result":\{"_meta":\{"io.modelcontextprotocol\/serverInfo":\{"name":"cua-driver","version":"0.28.2"\}\},.*"resultType":"complete"/,
      );
      expect(legacy.toHarness[0]).toBe(modern.toHarness[0]!.replace(/"_meta":\{[^}]*\}\},/, "").replace(',"resultType":"complete"', ""));
    });

    it("protocol_error is the modern refusal of its reason on a modern request, the legacy one on a legacy request", async () => {
      const fault = plan({ kind: "protocol_error", reason: "unsupported_version", supported: ["2027-03-01"] }, "list_windows");
      const modern = relay(fault, "0.28.2");
      modern.r.fromHarness(modernCall(3, "list_windows"));
      const legacy = relay(fault, "0.28.2");
      legacy.r.fromHarness(INITIALIZE);
      legacy.r.fromHarness(call(3, "list_windows"));
      await flushed();
      expect(modern.toHarness).toEqual([
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2026-07-28","supported":["2027-03-01"]}}}',
      ]);
      expect(legacy.toHarness).toEqual(['{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Missing required per-request MCP metadata"}}']);
      expect([modern.toDriver, legacy.toDriver]).toEqual([[], [INITIALIZE]]);
    });

    it("a call the driver refuses for its era draws no fault: it goes to the driver, and the plan's call is the next one", async () => {
      const t = relay(plan({ kind: "refusal", code: "stale_element_token" }), "0.28.2");
      t.r.fromHarness(call(1, "click")); // legacy, before initialize
      t.r.fromHarness(INITIALIZE);
      t.r.fromHarness(call(2, "click"));
      await flushed();
      expect(t.toDriver).toEqual([call(1, "click"), INITIALIZE]);
      const sent = t.p.base.events.flatMap((e) => (e.kind === "mcp" && e.dir === "c2s" ? [[JSON.parse(String(e.line)).id, e.fault?.kind]] : []));
      expect(sent).toEqual([
        [1, undefined],
        [0, undefined],
        [2, "refusal"],
      ]);
      expect(t.toHarness[0]).toMatch(/^\{"jsonrpc":"2.0","id":2,"result":/);
    });
  });
});
