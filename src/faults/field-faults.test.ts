import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { createVirtualClock, type VirtualClock } from "#src/driver/clock-virtual.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { answerInprocess } from "#src/replay/engine/answer-inprocess.js";
import { cliRequest, mcpRequest, type ReplayRequest } from "#src/replay/engine/request.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession, type ReplaySession } from "#src/replay/session.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import { answerMcpCall } from "#src/transports/mcp/answer.js";
import { parseFaultPlan } from "./parse-plan.js";
import { growImageBase64, oversizeResult } from "./oversized.js";
import { createStickyFaults } from "./sticky.js";

const cassette = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"));
const LOOK = { tool: "get_window_state", args: { pid: 24132, window_id: 4194311, max_elements: 40 } };
const CLICK = { tool: "click", args: { pid: 24132, window_id: 4194311, element_token: "s00000004:15" } };
/** A read recorded before the click: answered in every epoch of this test (reads follow the epoch backwards). */
const SIZE = { tool: "list_windows", args: {} };
const START = { tool: "start_session", args: { session: "agent-1" } };
type Transport = "cli" | "mcp" | "http" | "inprocess";
type Call = { tool: string; args: Record<string, unknown> };

function open(plan: FaultPlan, seed?: number): { session: ReplaySession; clock: VirtualClock } {
  const clock = createVirtualClock();
  return { session: createReplaySession({ cassette, clock, faults: plan, ...(seed !== undefined ? { seed } : {}), ignore: ["session"] }), clock };
}

function request(transport: Transport, call: Call, stream = 0): ReplayRequest {
  if (transport === "cli") return cliRequest({ argv: ["call", call.tool, JSON.stringify(call.args)], env: { HOME: "/home/u" } });
  if (transport === "inprocess") return { transport, method: "call", tool: call.tool, args: call.args };
  return mcpRequest({ message: { idRaw: "7", method: "tools/call", params: { name: call.tool, arguments: call.args } }, transport, stream });
}

/** One call: the answer as the transport renders it, its delay (undefined: no answer at all), and the log entry. */
function call(session: ReplaySession, transport: Transport, c: Call, stream = 0) {
  const decision = session.decide(request(transport, c, stream));
  const answer =
    transport === "cli"
      ? answerCli({ decision, ...(session.frame ? { frame: session.frame } : {}) })
      : transport === "inprocess"
        ? answerInprocess(decision)
        : answerMcpCall({ decision, idRaw: "7", transport });
  const entry = session.record(decision, { tMs: session.t(), ...("served" in answer && answer.served !== undefined ? { served: answer.served } : {}) });
  const delayMs = answer.type === "hang" ? undefined : "delayMs" in answer ? answer.delayMs : 0;
  return { answer, entry, delayMs };
}

const TRANSPORTS: readonly Transport[] = ["cli", "mcp", "http", "inprocess"];

describe("stall: from the matched call on every answer is late, until the harness rebuilds", () => {
  for (const transport of TRANSPORTS) {
    it(transport, () => {
      const { session } = open({ rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "stall", ms: 62_000 } }] });
      expect(call(session, transport, LOOK).delayMs).toBe(0);
      const click = call(session, transport, CLICK);
      expect(click.delayMs).toBe(62_000);
      expect(click.entry.fault).toEqual({ kind: "stall", rule: 0, params: { ms: 62_000 } });
      // every later call is late too, logged as the same rule's stall
      const size = call(session, transport, SIZE);
      expect(size.delayMs).toBe(62_000);
      expect(size.entry).toMatchObject({ outcome: "faulted", fault: { kind: "stall", rule: 0 } });
      call(session, transport, { ...START, args: { session: "agent-1" } });
      const after = call(session, transport, SIZE);
      expect(after.delayMs).toBe(0);
      expect(after.entry.fault).toBeUndefined();
    });
  }

  it("MCP stdio: a new process (a request on a new stream) ends it", () => {
    const { session } = open({ rules: [{ match: { tool: "click" }, fault: { kind: "stall", ms: 5000 } }] });
    call(session, "mcp", CLICK, 0);
    expect(call(session, "mcp", SIZE, 0).delayMs).toBe(5000);
    expect(call(session, "mcp", SIZE, 1).delayMs).toBe(0);
  });
});

describe("freeze: from the matched call on nothing is answered, until the harness rebuilds", () => {
  for (const transport of TRANSPORTS) {
    it(transport, () => {
      const { session } = open({ rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "freeze" } }] });
      const click = call(session, transport, CLICK);
      expect(click.answer.type).toBe("hang");
      const size = call(session, transport, SIZE);
      expect(size.answer.type).toBe("hang");
      expect(size.entry).toMatchObject({ outcome: "faulted", fault: { kind: "freeze", rule: 0 } });
      if (transport === "cli") {
        // the daemon client's own deadline, as for a hang
        expect(size.answer).toMatchObject({ type: "hang", afterMs: 120_000, then: { exitCode: 1 } });
      }
      const started = call(session, transport, START);
      expect(started.answer.type).not.toBe("hang");
      expect(call(session, transport, SIZE).entry.fault).toBeUndefined();
    });
  }

  it("MCP stdio: the stuck process stays stuck; a new one answers", () => {
    const { session } = open({ rules: [{ match: { tool: "click" }, fault: { kind: "freeze" } }] });
    call(session, "mcp", CLICK, 0);
    expect(call(session, "mcp", LOOK, 0).answer.type).toBe("hang");
    const fresh = call(session, "mcp", SIZE, 1);
    expect(fresh.answer.type).toBe("line");
    expect(fresh.entry.fault).toBeUndefined();
  });
});

describe("no_effect: answered as delivered, and the reads after it show the unchanged screen", () => {
  for (const transport of TRANSPORTS) {
    it(transport, () => {
      const plain = open({ rules: [] }).session;
      call(plain, transport, LOOK);
      const delivered = call(plain, transport, CLICK);
      const changed = call(plain, transport, LOOK);
      // without the fault the click moved the epoch: the look is an earlier epoch's, said so, and as
      // that recorded look was served already it comes with a new snapshot id (the driver mints one a read)
      expect(changed.entry).toMatchObject({ matched_seq: 8, fallback_epoch: 0, epoch_before: 1 });
      expect(changed.entry.synthesized).toBe("fresh_look");

      const { session } = open({ rules: [{ match: { tool: "click" }, fault: { kind: "no_effect" } }] });
      const before = call(session, transport, LOOK);
      const click = call(session, transport, CLICK);
      expect(JSON.stringify(click.answer)).toBe(JSON.stringify(delivered.answer));
      expect(click.entry).toMatchObject({ outcome: "faulted", fault: { kind: "no_effect" } });
      expect(click.entry.epoch_after).toBe(click.entry.epoch_before);
      const look = call(session, transport, LOOK);
      expect(look.entry).toMatchObject({ matched_seq: before.entry.matched_seq, epoch_before: 0 });
      expect(look.entry.fallback_epoch).toBeUndefined();
      // the same screen, under the new snapshot id the driver gives every read
      const ids = (answer: unknown) => JSON.stringify(answer).match(/s[0-9a-f]{8}/g) ?? [];
      const screen = (answer: unknown) => JSON.stringify(answer).replace(/s[0-9a-f]{8}/g, "s");
      expect(screen(look.answer)).toBe(screen(before.answer));
      expect(ids(look.answer)[0]).not.toBe(ids(before.answer)[0]);
      expect(look.entry.synthesized).toBe("unchanged_screen");
      expect(look.entry.basis).toMatchObject({ source: "cassette", seq: 8 });
      expect(look.entry.basis?.detail).toMatch(/request #1 \(click\).*no_effect.*served again, so as a fresh look/);
    });
  }
});

describe("session_expired: calls refused session_ended while health reads stay healthy", () => {
  it("MCP stdio, HTTP and in process: the driver's session_ended refusal; start_session revives", () => {
    for (const transport of ["mcp", "http", "inprocess"] as const) {
      const { session } = open({ rules: [{ match: { tool: "list_windows" }, fault: { kind: "session_expired" } }] });
      const refused = call(session, transport, SIZE);
      expect(refused.entry.result?.refusal_code, transport).toBe("session_ended");
      expect(refused.entry.fault?.kind).toBe("session_expired");
      const look = call(session, transport, LOOK);
      expect(look.entry.result?.refusal_code).toBe("session_ended");
      if (transport !== "inprocess") {
        const line = JSON.parse((look.answer as { line: string }).line) as { result: { isError: boolean; structuredContent: unknown } };
        expect(line.result.isError).toBe(true);
        expect(line.result.structuredContent).toEqual({
          refusal: { code: "session_ended", message: "this session has ended; call start_session explicitly to reuse its label" },
          status: "refused",
        });
      }
      call(session, transport, START);
      expect(call(session, transport, LOOK).entry.fault).toBeUndefined();
    }
  });

  it("per-call CLI: a named session gets the daemon's guard (stderr, exit 1); the implicit one is fresh each call", () => {
    const { session } = open({ rules: [{ match: { tool: "list_windows" }, fault: { kind: "session_expired" } }] });
    const refused = call(session, "cli", { tool: "list_windows", args: { session: "agent-1" } });
    expect(refused.answer).toMatchObject({
      type: "output",
      exitCode: 1,
      stdout: "",
      stderr:
        "session 'agent-1' has ended; tool call 'list_windows' was rejected. Call start_session with this id to revive it before issuing further actions, or use a new session id.\n",
    });
    expect(call(session, "cli", { ...LOOK, args: { ...LOOK.args, session: "agent-1" } }).answer).toMatchObject({ exitCode: 1 });
    expect(call(session, "cli", LOOK).entry.fault).toBeUndefined();
  });

  it("health and session-status reads stay healthy and do not refresh the idle time; after_ms is the idle timeout", () => {
    const sticky = createStickyFaults();
    const rule = { rule: 0, fault: { kind: "session_expired" as const, after_ms: 300_000 } };
    const at = (tool: string, tMs: number, chosen?: typeof rule) => sticky.apply({ tool, transport: "mcp", stream: 0, tMs }, chosen)?.fault.kind;
    expect(at("click", 0, rule)).toBeUndefined(); // armed: this call is served
    expect(at("click", 200_000)).toBeUndefined(); // activity within the timeout
    expect(at("health_report", 450_000)).toBeUndefined();
    expect(at("click", 499_999)).toBeUndefined(); // 299 999 ms idle (the health read did not count)
    expect(at("get_window_state", 900_000)).toBe("session_expired");
    expect(at("health_report", 900_001)).toBeUndefined();
    expect(at("list_sessions", 900_002)).toBeUndefined();
    expect(at("click", 900_003)).toBe("session_expired");
    expect(at("start_session", 900_004)).toBeUndefined();
    expect(at("click", 900_005)).toBeUndefined();
  });
});

describe("oversized: the answer grown past `bytes` on one line", () => {
  it("each transport: one line (MCP, HTTP), one stdout line (CLI), one result (in process) longer than bytes, still JSON", () => {
    for (const transport of TRANSPORTS) {
      const { session } = open({ rules: [{ match: { tool: "get_window_state" }, fault: { kind: "oversized", bytes: 1_048_576 } }] });
      const { answer, entry } = call(session, transport, LOOK);
      expect(entry.fault).toEqual({ kind: "oversized", rule: 0, params: { bytes: 1_048_576 } });
      if (transport === "mcp" || transport === "http") {
        const line = (answer as { line: string }).line;
        expect(line).not.toContain("\n");
        expect(Buffer.byteLength(line)).toBeGreaterThan(1_048_576);
        expect(() => JSON.parse(line)).not.toThrow();
      } else if (transport === "cli") {
        const stdout = String((answer as { stdout: unknown }).stdout);
        expect(Math.max(...stdout.split("\n").map((l) => l.length))).toBeGreaterThan(1_048_576);
        expect(() => JSON.parse(stdout)).not.toThrow();
      } else {
        const reply = (answer as { reply: { raw?: string } }).reply;
        expect(reply.raw!.length).toBeGreaterThan(1_048_576);
      }
    }
  });

  it("a PNG grows by a valid ancillary chunk: same pixels, right CRC, IEND last", () => {
    const png = tinyPng();
    const grown = Buffer.from(growImageBase64(png.toString("base64"), 4000), "base64");
    expect(grown.length).toBeGreaterThan(png.length + 2900);
    const chunks = pngChunks(grown);
    expect(chunks.map((c) => c.type)).toEqual(["IHDR", "IDAT", "tEXt", "IEND"]);
    for (const c of chunks) expect(c.crcOk, c.type).toBe(true);
    expect(chunks.find((c) => c.type === "IDAT")!.data).toEqual(pngChunks(png).find((c) => c.type === "IDAT")!.data);
  });

  it("a JPEG grows by COM segments after SOI; a result with an image grows the image", () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xd9]);
    const grown = Buffer.from(growImageBase64(jpeg.toString("base64"), 200_000), "base64");
    expect(grown.subarray(0, 4)).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xfe]));
    expect(grown.subarray(-8)).toEqual(jpeg.subarray(2));
    const raw = JSON.stringify({ content: [{ data: tinyPng().toString("base64"), mimeType: "image/png", type: "image" }], isError: false });
    const big = oversizeResult(raw, 50_000);
    expect(big.length).toBeGreaterThan(50_000);
    const data = (JSON.parse(big) as { content: { data: string }[] }).content[0]!.data;
    expect(pngChunks(Buffer.from(data, "base64")).map((c) => c.type)).toContain("tEXt");
  });
});

describe("a refusal that arrives late: delay composed with refusal in one rule", () => {
  const plan = parseFaultPlan({
    file: "late.json",
    text: JSON.stringify({
      seed: 11,
      rules: [{ match: { tool: "list_windows" }, fault: { kind: "refusal", code: "background_unavailable", delay: { ms: 19_500, jitter_ms: 6_500 } } }],
    }),
  });
  for (const transport of TRANSPORTS) {
    it(transport, () => {
      const { session } = open(plan);
      const { delayMs, entry } = call(session, transport, SIZE);
      expect(delayMs).toBeGreaterThanOrEqual(13_000);
      expect(delayMs).toBeLessThanOrEqual(26_000);
      expect(entry.fault).toEqual({ kind: "refusal", rule: 0, params: { code: "background_unavailable", delay: { ms: delayMs } } });
      if (transport !== "cli") expect(entry.result?.refusal_code).toBe("background_unavailable");
    });
  }

  it("a late refusal's delay must fit its distribution (exit 2 naming the field)", () => {
    expect(() =>
      parseFaultPlan({
        file: "bad.json",
        text: JSON.stringify({ rules: [{ match: {}, fault: { kind: "refusal", code: "x", delay: { ms: 10, sigma: 1 } } }] }),
      }),
    ).toThrow(/sigma belongs to the lognormal distribution/);
  });
});

describe("the field kinds replay identically by seed", () => {
  it("the same plan and seed give the same log, entry for entry", () => {
    const plan: FaultPlan = {
      rules: [
        { match: { tool: "click", probability: 0.5 }, fault: { kind: "no_effect" } },
        { match: { kind: "read", probability: 0.3 }, fault: { kind: "refusal", code: "session_ended", delay: { ms: 1000, jitter_ms: 900 } } },
        { match: { kind: "mutation", probability: 0.2 }, fault: { kind: "stall", ms: 62_000 } },
      ],
    };
    const run = (seed: number) => {
      const { session } = open(plan, seed);
      for (const c of [LOOK, CLICK, LOOK, SIZE, CLICK, LOOK, SIZE]) call(session, "mcp", c);
      return JSON.stringify(session.entries().map((e) => ({ ...e, t_ms: 0, duration_ms: 0 })));
    };
    expect(run(5)).toBe(run(5));
    const seeds = new Set([1, 2, 3, 4, 5, 6].map(run));
    expect(seeds.size).toBeGreaterThan(1);
  });
});

function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const idat = zlib.deflateSync(Buffer.from([0, 255, 0, 0]));
  return Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

function pngChunks(png: Buffer): { type: string; data: Buffer; crcOk: boolean }[] {
  const out: { type: string; data: Buffer; crcOk: boolean }[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString("latin1");
    const data = png.subarray(at + 8, at + 8 + len);
    const crc = png.readUInt32BE(at + 8 + len);
    out.push({ type, data, crcOk: crc === zlib.crc32(png.subarray(at + 4, at + 8 + len)) });
    at += 12 + len;
  }
  return out;
}
