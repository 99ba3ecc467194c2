import type { ReplayTransport, ToolKind } from "#src/schema/replay-log.js";
import { endsEpoch, type RecordedExchange } from "./exchanges.js";
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
  /** The harness mutations in recorded order. */
  readonly mutations: readonly RecordedExchange[];
  /** Index in `mutations` of the next one the recording expects. */
  readonly position: number;
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
  // session starts and ends are answered at any epoch and never end one (docs/decisions/0014)
  const mutations = exchanges.filter((x) => x.kind === "mutation" && x.origin === "harness" && !isLifecycleTool(x.request.tool));
  const ordered = exchanges.filter((x) => x.kind !== "other" && x.origin === "harness");
  const mutationIndex = new Map(mutations.map((x, i) => [x.seq, i]));
  const consumed = new Set<number>();
  const answeredOutOfOrder = new Set<number>();
  const cursors = new Map<string, number>();
  /** Per match key: its recorded reads by epoch, and those epochs in ascending order (built on first use). */
  const readIndex = new Map<string, { byEpoch: Map<number, RecordedExchange[]>; epochs: number[] }>();
  let epoch = 0;
  let position = 0;
  let strictPos = 0;

  const readsOf = (key: string, group: readonly RecordedExchange[]) => {
    let index = readIndex.get(key);
    if (!index) {
      const byEpoch = new Map<number, RecordedExchange[]>();
      for (const x of group) {
        if (x.kind !== "read") continue;
        const list = byEpoch.get(x.epoch);
        if (list) list.push(x);
        else byEpoch.set(x.epoch, [x]);
      }
      index = { byEpoch, epochs: [...byEpoch.keys()].sort((a, b) => a - b) };
      readIndex.set(key, index);
    }
    return index;
  };

  /** The latest epoch before `epoch` that recorded a read of this key (binary search). */
  const latestBefore = (epochs: readonly number[]): number | undefined => {
    let lo = 0;
    let hi = epochs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (epochs[mid]! < epoch) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? epochs[lo - 1] : undefined;
  };

  /** A mutation the recorder kept from the driver (`record --faults`) did not change the desktop. */
  const epochAfter = (x: RecordedExchange) => x.epoch + (endsEpoch(x) ? 1 : 0);

  const take = (cursorKey: string, list: readonly RecordedExchange[]): RecordedExchange => {
    const c = cursors.get(cursorKey) ?? 0;
    cursors.set(cursorKey, c + 1);
    return list[Math.min(c, list.length - 1)]!;
  };

  const miss = (request: ReplayRequest): MatchResult => ({
    miss: nearestRecorded({ request, exchanges, keys, epoch, consumed, nextMutation: mutations[position], mode }),
  });

  /** A lifecycle call the current epoch cannot answer in order: the same request recorded at any epoch. */
  const outOfOrder = (request: ReplayRequest, group: readonly RecordedExchange[]): MatchResult | undefined => {
    if (!isLifecycleTool(request.tool)) return undefined;
    const chosen = lifecycleAnswer(group, epoch);
    if (!chosen) return undefined;
    const list = preferred(
      group.filter((x) => x.epoch === chosen.epoch && x.kind !== "other"),
      request,
    );
    return { exchange: list[0] ?? chosen, lifecycleEpoch: chosen.epoch };
  };

  return {
    get epoch() {
      return epoch;
    },
    get position() {
      return position;
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
        const expected = mutations[position];
        if (expected && !consumed.has(expected.seq) && matchKey(expected.request, keys) === key) return { exchange: expected };
        return outOfOrder(request, group) ?? miss(request);
      }
      const reads = readsOf(key, group);
      const current = reads.byEpoch.get(epoch);
      const inEpoch = current ? preferred(current, request) : [];
      if (inEpoch.length > 0) return { exchange: take(`read:${epoch}:${shapeOf(request)}:${key}`, inEpoch) };
      const latest = latestBefore(reads.epochs);
      if (latest !== undefined) {
        const list = preferred(reads.byEpoch.get(latest)!, request);
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
      const index = mutationIndex.get(exchange.seq);
      if (index === undefined) return;
      consumed.add(exchange.seq);
      position = index + 1;
      epoch = epochAfter(exchange);
    },
    unused() {
      return mutations.filter((x) => !consumed.has(x.seq) && !answeredOutOfOrder.has(x.seq));
    },
    mutations,
    isConsumed: (exchange) => consumed.has(exchange.seq),
    skipTo(exchange) {
      const index = mutationIndex.get(exchange.seq);
      if (index === undefined || index < position) return;
      consumed.add(exchange.seq);
      position = index + 1;
      epoch = epochAfter(exchange);
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
