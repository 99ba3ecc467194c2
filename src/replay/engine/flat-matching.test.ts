import { performance } from "node:perf_hooks";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { createEngine } from "./engine.js";
import type { RecordedExchange } from "./exchanges.js";
import { jsonDifferences } from "./json-path.js";
import { keyOptions, matchArgs, matchKey } from "./match-key.js";
import { nearestRecorded } from "./nearest.js";
import { prepareCassette, type PreparedCassette } from "./prepared.js";
import type { ReplayRequest } from "./request.js";

// docs/decisions/0200: what a call costs does not grow with the epoch or the cassette

const WINDOW = { pid: 7, window_id: 70 };
const LOOK = JSON.stringify({
  content: [{ text: "tree", type: "text" }],
  structuredContent: { elements: [], pid: 7, snapshot_id: "s00000001", window_id: 70 },
});
const LIST = JSON.stringify({
  content: [{ text: "1 window", type: "text" }],
  structuredContent: { windows: [{ pid: 7, window_id: 70, title: "Demo", app_name: "Demo" }] },
});
const ACTION = '{"content":[{"text":"ok","type":"text"}],"structuredContent":{"effect":"unverifiable"}}';
const SESSION = JSON.stringify({ content: [{ text: "ok", type: "text" }], structuredContent: { active: true, session: "s", revived: false } });

/** An MCP cassette of `copies` copies of one flow (a session start, looks, three mutations). */
function flows(copies: number): CassetteEvent[] {
  const events: CassetteEvent[] = [];
  let id = 0;
  const add = (tool: string, args: Record<string, unknown>, result: string) => {
    id++;
    const base = { t_ms: id, origin: "harness", kind: "mcp", stream: 0 } as const;
    events.push({
      ...base,
      seq: events.length,
      dir: "c2s",
      line: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } }),
    } as CassetteEvent);
    events.push({ ...base, seq: events.length, dir: "s2c", line: `{"jsonrpc":"2.0","id":${id},"result":${result}}` } as CassetteEvent);
  };
  for (let c = 0; c < copies; c++) {
    add("start_session", { session: "s" }, SESSION);
    add("list_windows", {}, LIST);
    add("get_window_state", WINDOW, LOOK);
    add("click", { ...WINDOW, x: 10, y: 20 }, ACTION);
    add("type_text", { ...WINDOW, text: "hello" }, ACTION);
    add("get_window_state", WINDOW, LOOK);
    add("press_key", { ...WINDOW, key: "Return" }, ACTION);
  }
  return events;
}

const call = (tool: string, args: Record<string, unknown> = {}): ReplayRequest => ({ transport: "inprocess", method: "call", tool, args });

/** Per-call milliseconds of `request` on an engine over `copies` flows, after the first `advance` flows were replayed. */
const preparations = new Map<number, PreparedCassette>();
function perCall(copies: number, advance: number, request: ReplayRequest, calls: number): number {
  let prepared = preparations.get(copies);
  if (!prepared) preparations.set(copies, (prepared = prepareCassette({ events: flows(copies) })));
  const engine = createEngine({ prepared });
  const recorded = engine.exchanges.filter((x) => x.request.method === "call");
  for (const x of recorded.slice(0, advance * 7)) engine.entry(engine.decide({ ...x.request, transport: "inprocess" }), { tMs: 0 });
  for (let i = 0; i < 20; i++) engine.decide(request);
  const t = performance.now();
  for (let i = 0; i < calls; i++) engine.decide(request);
  return (performance.now() - t) / calls;
}

describe("the cost of a call after epochs have advanced", () => {
  // before: a mutation sent again walked back over every consumed mutation, and every miss compared
  // the request with every recorded one, so the large cassette was hundreds of times slower
  it.each([
    ["a read", call("list_windows")],
    ["a mutation sent again (resent_mutation)", call("click", { ...WINDOW, x: 10, y: 20 })],
    ["an unmatched request", call("click", { ...WINDOW, x: 99, y: 99 })],
    ["a session start out of the recorded order", call("start_session", { session: "s" })],
  ])(
    "%s costs about the same on 100 and on 5 000 recorded flows",
    (_name, request) => {
      // alternating rounds, the fastest of each: what is left when the machine's noise (GC, JIT, other work) is not.
      // A round is a few milliseconds, so on a machine busy with other processes every round of a few can be
      // interrupted: more rounds are taken (up to 25) until the fastest of each settles under the bound.
      const small: number[] = [];
      const large: number[] = [];
      const ratio = () => Math.min(...large) / Math.min(...small);
      for (let round = 0; round < 25 && (round < 5 || ratio() >= 3); round++) {
        small.push(perCall(100, 80, request, 1000));
        large.push(perCall(5_000, 80, request, 1000));
      }
      // a generous bound on a shared machine: the cost before grew with the recording (×50 and more)
      expect(ratio()).toBeLessThan(3);
    },
    60_000,
  );
});

/** The nearest recorded request found one recorded exchange at a time (the definition the indexed search keeps). */
function nearestByScan(request: ReplayRequest, exchanges: readonly RecordedExchange[], epoch: number): RecordedExchange | undefined {
  const keys = keyOptions({});
  const candidates = exchanges.filter((x) => (request.method === "call" ? x.request.method === "call" : x.request.method === request.method));
  const args = matchArgs(request, keys);
  let best: { x: RecordedExchange; score: number } | undefined;
  for (const x of candidates) {
    const diffs = jsonDifferences(matchArgs(x.request, keys), args);
    const score =
      (x.request.tool !== request.tool ? 1000 : 0) + diffs.length + (JSON.stringify(x.request.flags ?? {}) === JSON.stringify(request.flags ?? {}) ? 0 : 1);
    if (!best || score < best.score || (score === best.score && Math.abs(x.epoch - epoch) < Math.abs(best.x.epoch - epoch))) best = { x, score };
  }
  return best?.x;
}

describe("the nearest recorded request, found through the key index", () => {
  it("is the one a scan of every recorded request finds", () => {
    const tool = fc.constantFrom("click", "type_text", "list_windows");
    const args = fc.record({ x: fc.integer({ min: 0, max: 3 }), y: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }) });
    fc.assert(
      fc.property(
        fc.array(fc.record({ tool, args, epochStep: fc.boolean(), flags: fc.option(fc.constant({ json: true }), { nil: undefined }) }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.record({ tool, args, flags: fc.option(fc.constant({ json: true }), { nil: undefined }) }),
        fc.nat({ max: 25 }),
        (recorded, wanted, epoch) => {
          let e = 0;
          const exchanges: RecordedExchange[] = recorded.map((r, seq) => {
            if (r.epochStep) e++;
            const request: ReplayRequest = {
              transport: "cli",
              method: "call",
              tool: r.tool,
              args: JSON.parse(JSON.stringify(r.args)),
              ...(r.flags ? { flags: r.flags } : {}),
            };
            return { seq, transport: "cli", request, kind: "read", epoch: e, origin: "harness", durationMs: 0 };
          });
          const request: ReplayRequest = {
            transport: "cli",
            method: "call",
            tool: wanted.tool,
            args: JSON.parse(JSON.stringify(wanted.args)),
            ...(wanted.flags ? { flags: wanted.flags } : {}),
          };
          const keys = keyOptions({});
          const index = new Map<string, RecordedExchange[]>();
          for (const x of exchanges) {
            const k = matchKey(x.request, keys);
            index.set(k, [...(index.get(k) ?? []), x]);
          }
          const miss = nearestRecorded({ request, exchanges, keys, epoch, consumed: new Set(), nextMutation: undefined, mode: "per-key", index });
          expect(miss.nearestSeq).toBe(nearestByScan(request, exchanges, epoch)?.seq);
        },
      ),
      { numRuns: 300 },
    );
  });
});
