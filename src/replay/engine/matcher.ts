import type { ReplayTransport, ToolKind } from "../../schema/replay-log.js";
import type { RecordedExchange } from "./exchanges.js";
import { matchKey, type KeyOptions } from "./match-key.js";
import { nearestRecorded, type Miss } from "./nearest.js";
import type { ReplayRequest } from "./request.js";
import { isLifecycleTool, lifecycleAnswer } from "./session-lifecycle.js";

export type MatchMode = "per-key" | "strict-order";

export type MatchResult =
  | {
      exchange: RecordedExchange;
      fallbackEpoch?: number;
      /** A lifecycle call answered from this epoch out of the recorded order: not consumed, the epoch stays. */
      lifecycleEpoch?: number;
    }
  | { miss: Miss };

export interface Matcher {
  readonly epoch: number;
  match(request: ReplayRequest, kind: ToolKind): MatchResult;
  /**
   * Consume a mutation and move to the next epoch (or leave the epoch, for faults before effect).
   * A lifecycle answer out of order (`outOfOrder`) is only marked as used.
   */
  commit(exchange: RecordedExchange, options: { advance: boolean; outOfOrder?: boolean }): void;
  /** Harness mutations never consumed. */
  unused(): RecordedExchange[];
  /** The harness mutations in recorded order (mutation `i` ends epoch `i`). */
  readonly mutations: readonly RecordedExchange[];
  /** Whether a recorded mutation has been consumed. */
  isConsumed(exchange: RecordedExchange): boolean;
  /**
   * Consume a later recorded mutation, leaving the ones between the current epoch and it unused
   * (they did not take effect): the epoch moves to just after it.
   */
  skipTo(exchange: RecordedExchange): void;
}

const PREFERENCE: Record<ReplayTransport, readonly string[]> = {
  cli: ["cli", "mcp", "http"],
  mcp: ["mcp", "http", "cli"],
  http: ["http", "mcp", "cli"],
  inprocess: ["mcp", "http", "cli"],
};

/**
 * Prefer exchanges recorded on the request's own transport (its bytes are exact) and, on the CLI,
 * with the same use of `--screenshot-out-file` (so stdout and the file both come back as recorded).
 */
function preferred(group: readonly RecordedExchange[], request: ReplayRequest): RecordedExchange[] {
  for (const t of PREFERENCE[request.transport]) {
    const same = group.filter((x) => x.transport === t);
    if (same.length === 0) continue;
    const shaped = same.filter((x) => (x.request.outFile !== undefined) === (request.outFile !== undefined));
    return shaped.length > 0 ? shaped : same;
  }
  return [];
}

const shapeOf = (request: ReplayRequest) => `${request.transport}:${request.outFile !== undefined ? "file" : "inline"}`;

/**
 * Epoch-aware matching (DESIGN.md §4). Reads are answered from the current epoch (per key, in
 * order, repeating the last), falling back to the latest earlier epoch; a mutation must be the
 * one that ended the current epoch and is consumed once. `strict-order` also pins reads to the
 * recorded order. Non-tool requests (initialize, --version, …) are answered from any epoch, and so
 * are session-lifecycle calls out of the recorded order (per-key mode only; never consumed).
 */
export function createMatcher(options: {
  exchanges: readonly RecordedExchange[];
  mode: MatchMode;
  keys: KeyOptions;
  /** Exchanges by match key (shared between engines over one prepared cassette); built here when absent. */
  index?: ReadonlyMap<string, readonly RecordedExchange[]>;
}): Matcher {
  const { exchanges, mode, keys } = options;
  const byKey = options.index ?? indexByKey(exchanges, keys);
  const mutations = exchanges.filter((x) => x.kind === "mutation" && x.origin === "harness");
  const ordered = exchanges.filter((x) => x.kind !== "other" && x.origin === "harness");
  const consumed = new Set<number>();
  const answeredOutOfOrder = new Set<number>();
  const cursors = new Map<string, number>();
  let epoch = 0;
  let strictPos = 0;

  const take = (cursorKey: string, list: readonly RecordedExchange[]): RecordedExchange => {
    const c = cursors.get(cursorKey) ?? 0;
    cursors.set(cursorKey, c + 1);
    return list[Math.min(c, list.length - 1)]!;
  };

  const miss = (request: ReplayRequest): MatchResult => ({
    miss: nearestRecorded({ request, exchanges, keys, epoch, consumed, nextMutation: mutations[epoch], mode }),
  });

  /** A lifecycle call the current epoch cannot answer in order: the same request recorded at any epoch. */
  const outOfOrder = (request: ReplayRequest, group: readonly RecordedExchange[]): MatchResult | undefined => {
    if (!isLifecycleTool(request.tool)) return undefined;
    const chosen = lifecycleAnswer(group, epoch);
    if (!chosen) return undefined;
    const list = preferred(group.filter((x) => x.epoch === chosen.epoch && x.kind !== "other"), request);
    return { exchange: list[0] ?? chosen, lifecycleEpoch: chosen.epoch };
  };

  return {
    get epoch() {
      return epoch;
    },
    match(request, kind) {
      const key = matchKey(request, keys);
      const group = byKey.get(key) ?? [];
      if (kind === "other") {
        const list = preferred(group, request);
        return list.length > 0 ? { exchange: take(`other:${shapeOf(request)}:${key}`, list) } : miss(request);
      }
      if (mode === "strict-order") {
        const next = ordered[strictPos];
        if (next && matchKey(next.request, keys) === key && !consumed.has(next.seq)) {
          strictPos++;
          return { exchange: next };
        }
        return miss(request);
      }
      if (kind === "mutation") {
        const expected = mutations[epoch];
        if (expected && !consumed.has(expected.seq) && matchKey(expected.request, keys) === key) return { exchange: expected };
        return outOfOrder(request, group) ?? miss(request);
      }
      const inEpoch = preferred(group.filter((x) => x.epoch === epoch && x.kind === "read"), request);
      if (inEpoch.length > 0) return { exchange: take(`read:${epoch}:${shapeOf(request)}:${key}`, inEpoch) };
      const earlier = group.filter((x) => x.epoch < epoch && x.kind === "read");
      if (earlier.length > 0) {
        const latest = Math.max(...earlier.map((x) => x.epoch));
        const list = preferred(earlier.filter((x) => x.epoch === latest), request);
        return { exchange: list.at(-1)!, fallbackEpoch: latest };
      }
      return outOfOrder(request, group) ?? miss(request);
    },
    commit(exchange, { advance, outOfOrder }) {
      if (outOfOrder) {
        answeredOutOfOrder.add(exchange.seq);
        return;
      }
      if (exchange.kind !== "mutation" || !advance) return;
      consumed.add(exchange.seq);
      const index = mutations.indexOf(exchange);
      if (index >= 0) epoch = index + 1;
    },
    unused() {
      return mutations.filter((x) => !consumed.has(x.seq) && !answeredOutOfOrder.has(x.seq));
    },
    mutations,
    isConsumed: (exchange) => consumed.has(exchange.seq),
    skipTo(exchange) {
      const index = mutations.indexOf(exchange);
      if (index < epoch) return;
      consumed.add(exchange.seq);
      epoch = index + 1;
    },
  };
}

function indexByKey(exchanges: readonly RecordedExchange[], keys: KeyOptions): Map<string, RecordedExchange[]> {
  const byKey = new Map<string, RecordedExchange[]>();
  for (const x of exchanges) {
    const k = matchKey(x.request, keys);
    const list = byKey.get(k) ?? [];
    list.push(x);
    byKey.set(k, list);
  }
  return byKey;
}
