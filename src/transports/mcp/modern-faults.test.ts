// Every fault kind on a modern tools/call is the legacy rendering in the modern era: a result gets
// the envelope, everything else is the same bytes, and the log judges both alike. The 0.28 session
// is the real 0.21.0 recording relabelled as 0.28.2 in memory.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import type { Fault } from "#src/schema/fault-plan.js";
import type { RequestEntry } from "#src/schema/replay-log.js";
import { FAULT_SAMPLE } from "../../../test/helpers/fault-samples.js";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { CLIENT_CAPABILITIES_KEY, finishModernLine, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION_KEY, protocolFaultLine } from "./era.js";
import { mcpFront } from "./front.js";
import { runInvariants } from "#src/invariants/run.js";
import { INVARIANT_IDS } from "#src/invariants/registry.js";

const CASSETTE = path.join(repoRoot, "recordings/gtk3-demo-mcp");
const META = { [PROTOCOL_VERSION_KEY]: MODERN_PROTOCOL_VERSION, [CLIENT_CAPABILITIES_KEY]: {} };
const LOOK = { pid: 29390, window_id: 4194311, session: "fixture-harness" };

async function faulted(era: "legacy" | "modern", fault?: Fault) {
  const cassette = loadReplayCassette(CASSETTE);
  const header = cassette.header!;
  cassette.header = { ...header, driver: { ...header.driver, version: "0.28.2" } };
  const faults = fault ? { rules: [{ match: { tool: "get_window_state", nth: 1 }, fault }] } : undefined;
  const session = createReplaySession({ cassette, clock: createVirtualClock(), ...(faults ? { faults } : {}) });
  const connection = mcpFront(session, "mcp").open();
  const metaParams = era === "modern" ? { _meta: META } : {};
  if (era === "legacy") await connection.send('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}');
  const call = (id: number, name: string, args: object) =>
    connection.send(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...metaParams } }));
  await call(1, "start_session", { session: "fixture-harness" });
  await call(2, "list_windows", {});
  const reply = await call(3, "get_window_state", LOOK);
  const entry = session.entries().filter((e): e is RequestEntry => e.type === "request" && e.tool === "get_window_state")[0]!;
  return { reply, entry, session };
}

const answerOf = (reply: { type: string; answer?: string }) => (reply.type === "answer" ? reply.answer : JSON.stringify(reply));

/** The logged entry without what differs between two runs, or between the eras (`era` says which one the request spoke). */
function judged(entry: RequestEntry) {
  const { t_ms: _t, duration_ms: _d, n: _n, era: _e, ...rest } = entry as RequestEntry & { duration_ms?: number };
  return rest;
}

describe("fault kinds on a modern tools/call", () => {
  // a protocol error is the era's own refusal, so its bytes differ by era (below); it is judged alike all the same
  const twins = Object.values(FAULT_SAMPLE).filter((f) => f.kind !== "protocol_error");
  it.each(twins.map((f) => [f.kind, f] as const))("%s is its legacy twin in the modern era", async (_kind, fault) => {
    const legacy = await faulted("legacy", fault);
    const modern = await faulted("modern", fault);
    expect(judged(modern.entry)).toEqual(judged(legacy.entry));
    expect(modern.entry.era).toBe("modern");
    expect(legacy.entry.era).toBe("legacy");
    expect(modern.reply.type).toBe(legacy.reply.type);
    if (legacy.reply.type !== "answer" || modern.reply.type !== "answer") {
      expect(modern.reply).toEqual(legacy.reply);
      return;
    }
    if (fault.kind === "truncated") {
      const whole = await faulted("modern");
      expect(whole.reply.type === "answer" && whole.reply.answer.startsWith(modern.reply.answer)).toBe(true);
      return;
    }
    expect(modern.reply.answer).toBe(finishModernLine(legacy.reply.answer, "tools/call", "0.28.2"));
    if (legacy.reply.answer.includes('"result"')) expect(modern.reply.answer).toContain('"resultType":"complete"');
  });
});

describe("the protocol_error fault kind", () => {
  it("on a modern tools/call, is the driver's own refusal of each reason, with the version the request asked for", async () => {
    const cases: [Fault, string][] = [
      [
        { kind: "protocol_error", reason: "unsupported_version" },
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2026-07-28","supported":["2026-07-28"]}}}',
      ],
      [
        { kind: "protocol_error", reason: "unsupported_version", supported: ["2027-03-01", "2026-07-28"] },
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2026-07-28","supported":["2027-03-01","2026-07-28"]}}}',
      ],
      [
        { kind: "protocol_error", reason: "missing_protocol_version" },
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Missing or invalid MCP protocolVersion metadata"}}',
      ],
      [
        { kind: "protocol_error", reason: "missing_client_capabilities" },
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Missing or invalid MCP clientCapabilities metadata"}}',
      ],
    ];
    for (const [fault, line] of cases) expect(answerOf((await faulted("modern", fault)).reply), JSON.stringify(fault)).toBe(line);
  });

  it("renders a version refusal byte for byte as the era check renders a request of an unsupported version", async () => {
    // what the era check answers a request that pins 2025-11-25 …
    const cassette = loadReplayCassette(CASSETTE);
    cassette.header = { ...cassette.header!, driver: { ...cassette.header!.driver, version: "0.28.2" } };
    const session = createReplaySession({ cassette, clock: createVirtualClock() });
    const connection = mcpFront(session, "mcp").open();
    const pinned = { ...META, [PROTOCOL_VERSION_KEY]: "2025-11-25" };
    const byTheCheck = await connection.send(
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_windows", arguments: {}, _meta: pinned } }),
    );
    // … is what the fault answers a request that asked for that version, had it been let through
    const byTheFault = protocolFaultLine({ idRaw: "3", era: "modern", params: { _meta: pinned }, fault: { reason: "unsupported_version" } });
    expect(answerOf(byTheCheck)).toBe(byTheFault);
  });

  it("on a legacy tools/call, is the refusal of a request without the era's metadata; the log judges both eras alike", async () => {
    const legacy = await faulted("legacy", FAULT_SAMPLE.protocol_error);
    const modern = await faulted("modern", FAULT_SAMPLE.protocol_error);
    expect(answerOf(legacy.reply)).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Missing required per-request MCP metadata"}}');
    expect(judged(modern.entry)).toEqual(judged(legacy.entry));
    expect(modern.entry).toMatchObject({ outcome: "faulted", fault: { kind: "protocol_error" }, era: "modern" });
  });
});

describe("the era of each request, logged for the invariants", () => {
  it("a request without the metadata after a modern one on the same connection is refused, logged, and flagged", async () => {
    const cassette = loadReplayCassette(CASSETTE);
    cassette.header = { ...cassette.header!, driver: { ...cassette.header!.driver, version: "0.28.2" } };
    const session = createReplaySession({ cassette, clock: createVirtualClock() });
    const connection = mcpFront(session, "mcp").open();
    await connection.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } }));
    await connection.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_windows", arguments: {}, _meta: META } }));
    const bare = await connection.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_windows", arguments: {} } }));
    expect(answerOf(bare)).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Missing required per-request MCP metadata"}}');
    const requests = session.entries().filter((e): e is RequestEntry => e.type === "request");
    expect(requests.map((r) => [r.method, r.era, r.synthesized])).toEqual([
      ["server/discover", "modern", "discover"],
      ["call", "modern", undefined],
      ["call", "legacy", "era_refusal"],
    ]);
    const report = runInvariants(session.entries(), { only: ["era-metadata-on-every-request"] });
    expect(report.results[0]!.violations.map((v) => v.evidence.requests)).toEqual([[0, 2]]);
    // refused before it ran: no other invariant takes it for a call that may have acted
    const others = INVARIANT_IDS.filter((id) => id !== "era-metadata-on-every-request");
    expect(runInvariants(session.entries(), { only: others }).passed).toBe(true);
  });
});
