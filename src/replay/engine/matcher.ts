import type { ReplayTransport, ToolKind } from "#src/schema/replay-log.js";
import type { RecordedTransport } from "#src/cassette/exchanges/index.js";
import { endsEpoch, type RecordedExchange } from "./exchanges.js";
import { matchKey, type KeyOptions } from "./match-key.js";
import { buildKeyIndex, derivedFrom, type KeyIndex } from "./derived.js";
import { nearestRecorded, type Miss } from "./nearest.js";
import type { ReplayRequest } from "./request.js";
import { isLifecycleTool } from "./session-lifecycle.js";

/**
 * How requests are matched to the recording: per key within the epoch, or in strict order
 * (docs/matching.md).
 */
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

/** Which recorded transports answer a request of each replay transport, best first (every one of each, in some order). */
const PREFERENCE: Record<ReplayTransport, readonly RecordedTransport[]> = {
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
 * Epoch-aware matching (docs/matching.md). Reads are answered from the current epoch (per key, in
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
  index?: KeyIndex;
}): Matcher {
  const { exchanges, mode, keys } = options;
  const byKey: KeyIndex = options.index ?? buildKeyIndex(exchanges, keys);
  // what never changes during a replay is worked out once per preparation and shared (docs/decisions/0200)
  const { mutations, ordered, mutationIndex } = derivedFrom(byKey, "order", () => recordedOrder(exchanges));
  const shared = sharedIndexes(byKey, keys);
  const consumed = new Set<number>();
  const answeredOutOfOrder = new Set<number>();
  const cursors = new Map<string, number>();
  let epoch = 0;
  let position = 0;
  let strictPos = 0;

  /** A mutation the recorder kept from the driver (`record --faults`) did not change the desktop. */
  const epochAfter = (x: RecordedExchange) => x.epoch + (endsEpoch(x) ? 1 : 0);

  const take = (cursorKey: string, list: readonly RecordedExchange[]): RecordedExchange => {
    const c = cursors.get(cursorKey) ?? 0;
    cursors.set(cursorKey, c + 1);
    return list[Math.min(c, list.length - 1)]!;
  };

  // the nearest recorded request is looked for only when the miss is read: an answer built off the
  // recorded path never needs it. What it depends on is taken now.
  const miss = (request: ReplayRequest): MatchResult => {
    const at = { epoch, nextMutation: mutations[position] };
    let found: Miss | undefined;
    return {
      get miss() {
        found ??= nearestRecorded({ request, exchanges, keys, epoch: at.epoch, consumed, nextMutation: at.nextMutation, mode, index: byKey });
        return found;
      },
    };
  };

  /** A lifecycle call the current epoch cannot answer in order: the same request recorded at any epoch. */
  const outOfOrder = (request: ReplayRequest, key: string, group: readonly RecordedExchange[]): MatchResult | undefined => {
    if (!isLifecycleTool(request.tool)) return undefined;
    const calls = shared.calls(key, group);
    const chosenEpoch = lifecycleEpoch(calls.epochs, epoch);
    if (chosenEpoch === undefined) return undefined;
    const atEpoch = calls.byEpoch.get(chosenEpoch)!;
    const list = shared.preferred(`call:${chosenEpoch}:${shapeOf(request)}:${key}`, atEpoch, request);
    return { exchange: list[0] ?? atEpoch[0]!, lifecycleEpoch: chosenEpoch };
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
        const list = shared.preferred(`other:${shapeOf(request)}:${key}`, group, request);
        return list.length > 0 ? { exchange: take(`other:${shapeOf(request)}:${key}`, list) } : miss(request);
      }
      if (mode === "strict-order") {
        const next = ordered[strictPos];
        if (next && shared.keyOf(next) === key && !consumed.has(next.seq)) {
          strictPos++;
          return { exchange: next };
        }
        return miss(request);
      }
      if (kind === "mutation") {
        const expected = mutations[position];
        if (expected && !consumed.has(expected.seq) && shared.keyOf(expected) === key) return { exchange: expected };
        return outOfOrder(request, key, group) ?? miss(request);
      }
      const reads = shared.reads(key, group);
      const current = reads.byEpoch.get(epoch);
      const inEpoch = current ? shared.preferred(`read:${epoch}:${shapeOf(request)}:${key}`, current, request) : [];
      if (inEpoch.length > 0) return { exchange: take(`read:${epoch}:${shapeOf(request)}:${key}`, inEpoch) };
      const latest = latestBefore(reads.epochs, epoch);
      if (latest !== undefined) {
        const list = shared.preferred(`read:${latest}:${shapeOf(request)}:${key}`, reads.byEpoch.get(latest)!, request);
        return { exchange: list.at(-1)!, fallbackEpoch: latest };
      }
      return outOfOrder(request, key, group) ?? miss(request);
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

/** The harness mutations in recorded order (session starts and ends excepted), the harness calls, and each mutation's place. */
interface RecordedOrder {
  mutations: readonly RecordedExchange[];
  ordered: readonly RecordedExchange[];
  mutationIndex: ReadonlyMap<number, number>;
}

function recordedOrder(exchanges: readonly RecordedExchange[]): RecordedOrder {
  // session starts and ends are answered at any epoch and never end one (docs/decisions/0014)
  const mutations = exchanges.filter((x) => x.kind === "mutation" && x.origin === "harness" && !isLifecycleTool(x.request.tool));
  const ordered = exchanges.filter((x) => x.kind !== "other" && x.origin === "harness");
  return { mutations, ordered, mutationIndex: new Map(mutations.map((x, i) => [x.seq, i])) };
}

/** Recorded exchanges of one match key by epoch, and those epochs in ascending order. */
interface ByEpoch {
  byEpoch: Map<number, RecordedExchange[]>;
  epochs: number[];
}

/**
 * What matching works out from a key index, once, for every matcher over it: per key its reads and
 * its tool calls by epoch, each exchange's key, and the transport-preferred subsets of the lists.
 * Nothing here depends on where a replay is, so the cost of a call does not grow with the epoch.
 */
interface SharedIndexes {
  reads(key: string, group: readonly RecordedExchange[]): ByEpoch;
  calls(key: string, group: readonly RecordedExchange[]): ByEpoch;
  keyOf(x: RecordedExchange): string;
  preferred(id: string, list: readonly RecordedExchange[], request: ReplayRequest): RecordedExchange[];
}

function sharedIndexes(byKey: KeyIndex, keyOptions: KeyOptions): SharedIndexes {
  return derivedFrom(byKey, "matcher", () => buildShared(byKey, keyOptions));
}

function buildShared(byKey: KeyIndex, keyOptions: KeyOptions): SharedIndexes {
  const reads = new Map<string, ByEpoch>();
  const calls = new Map<string, ByEpoch>();
  const preferredLists = new Map<string, RecordedExchange[]>();
  let keys: Map<RecordedExchange, string> | undefined;
  const byEpoch = (group: readonly RecordedExchange[], keep: (x: RecordedExchange) => boolean): ByEpoch => {
    const map = new Map<number, RecordedExchange[]>();
    for (const x of group) {
      if (!keep(x)) continue;
      const list = map.get(x.epoch);
      if (list) list.push(x);
      else map.set(x.epoch, [x]);
    }
    return { byEpoch: map, epochs: [...map.keys()].sort((a, b) => a - b) };
  };
  const made: SharedIndexes = {
    reads(key, group) {
      let index = reads.get(key);
      if (!index) reads.set(key, (index = byEpoch(group, (x) => x.kind === "read")));
      return index;
    },
    calls(key, group) {
      let index = calls.get(key);
      if (!index) calls.set(key, (index = byEpoch(group, (x) => x.kind !== "other")));
      return index;
    },
    keyOf(x) {
      if (!keys) {
        keys = new Map();
        for (const [key, group] of byKey) for (const member of group) keys.set(member, key);
      }
      return keys.get(x) ?? matchKey(x.request, keyOptions);
    },
    preferred(id, list, request) {
      let chosen = preferredLists.get(id);
      if (!chosen) preferredLists.set(id, (chosen = preferred(list, request)));
      return chosen;
    },
  };
  return made;
}

/** The latest epoch before `epoch` in an ascending list (binary search). */
function latestBefore(epochs: readonly number[], epoch: number): number | undefined {
  const i = firstAtOrAfter(epochs, epoch);
  return i > 0 ? epochs[i - 1] : undefined;
}

function firstAtOrAfter(epochs: readonly number[], epoch: number): number {
  let lo = 0;
  let hi = epochs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (epochs[mid]! < epoch) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The epoch a lifecycle call out of the recorded order is answered from (what `lifecycleAnswer`
 * chooses, found by binary search): the current epoch, else the latest earlier one, else the earliest later one.
 */
function lifecycleEpoch(epochs: readonly number[], epoch: number): number | undefined {
  const i = firstAtOrAfter(epochs, epoch);
  if (epochs[i] === epoch) return epoch;
  if (i > 0) return epochs[i - 1];
  return epochs[i];
}
