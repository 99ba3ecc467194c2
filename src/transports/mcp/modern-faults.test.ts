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
import { CLIENT_CAPABILITIES_KEY, finishModernLine, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION_KEY } from "./era.js";
import { mcpFront } from "./front.js";

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
  const meta = era === "modern" ? { _meta: META } : {};
  if (era === "legacy") await connection.send('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}');
  const call = (id: number, name: string, args: object) =>
    connection.send(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...meta } }));
  await call(1, "start_session", { session: "fixture-harness" });
  await call(2, "list_windows", {});
  const reply = await call(3, "get_window_state", LOOK);
  const entry = session.entries().filter((e): e is RequestEntry => e.type === "request" && e.tool === "get_window_state")[0]!;
  return { reply, entry };
}

describe("fault kinds on a modern tools/call", () => {
  it.each(Object.values(FAULT_SAMPLE).map((f) => [f.kind, f] as const))("%s is its legacy twin in the modern era", async (_kind, fault) => {
    const legacy = await faulted("legacy", fault);
    const modern = await faulted("modern", fault);
    const { t_ms: _a, duration_ms: _b, n: _n1, ...legacyEntry } = legacy.entry as RequestEntry & { duration_ms?: number };
    const { t_ms: _c, duration_ms: _d, n: _n2, ...modernEntry } = modern.entry as RequestEntry & { duration_ms?: number };
    expect(modernEntry).toEqual(legacyEntry);
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
