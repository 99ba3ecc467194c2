import type { RecordedExchange } from "./exchanges.js";
import { jsonDifferences } from "./json-path.js";
import { matchArgs, matchKey, type KeyOptions } from "./match-key.js";
import { buildKeyIndex, derivedFrom, type KeyIndex } from "./derived.js";
import { shortValue } from "./short-value.js";
import type { ReplayRequest } from "./request.js";

/** Why a request got no recorded answer, and the recorded request it came closest to. */
export interface Miss {
  reason: string;
  nearestSeq?: number;
  nearestTool?: string;
  /** JSON path of the first difference (`$.x`), when the nearest request differs in its arguments. */
  path?: string;
  /** Every argument path where the request differs from the nearest recorded one, in document order. */
  paths?: { path: string; expected: unknown; actual: unknown }[];
  /** The `--ignore` paths that together make the request match the nearest recorded one. */
  ignore?: string[];
  expected?: unknown;
  actual?: unknown;
  /** The first fault this replay injected before the request: the harness may be off the recorded path. */
  afterFault?: string;
}

const show = shortValue;

function label(x: RecordedExchange): string {
  return x.request.method === "call" ? `#${x.seq} (${x.request.tool ?? "?"})` : `#${x.seq} (${x.request.method})`;
}

/** Find the recorded request nearest to an unmatched one and say how they differ. */
export function nearestRecorded(options: {
  request: ReplayRequest;
  exchanges: readonly RecordedExchange[];
  keys: KeyOptions;
  epoch: number;
  consumed: ReadonlySet<number>;
  nextMutation: RecordedExchange | undefined;
  mode: string;
  /** The exchanges by match key for these key options: each distinct request is then compared once. */
  index?: KeyIndex;
}): Miss {
  const { request, exchanges, keys, epoch, consumed, nextMutation } = options;
  const index = options.index ?? buildKeyIndex(exchanges, keys);
  const groups = derivedFrom(index, "nearest", () => groupsOf(exchanges, index)).get(request.method === "call" ? "call" : `method:${request.method}`) ?? [];
  if (groups.length === 0) {
    return { reason: request.method === "call" ? "the cassette has no tool calls" : `the cassette never recorded ${request.method}` };
  }
  const args = matchArgs(request, keys);
  const flags = JSON.stringify(request.flags ?? {});
  // another tool scores 1000 and more: it is compared only when no call of the request's tool scores less
  const sameTool = groups.filter((g) => g.tool === request.tool);
  const otherTools = groups.filter((g) => g.tool !== request.tool);
  let best: { x: RecordedExchange; score: number; distance: number; at: number } | undefined;
  for (const g of sameTool.concat(otherTools)) {
    if (best && best.score < 1000 && g.tool !== request.tool) break;
    const score = (g.tool !== request.tool ? 1000 : 0) + jsonDifferences(matchArgs(g.members[0]!.request, keys), args).length + (g.flags === flags ? 0 : 1);
    if (best && score > best.score) continue;
    const near = closestIn(g, epoch);
    if (!best || score < best.score || near.distance < best.distance || (near.distance === best.distance && near.at < best.at)) best = { score, ...near };
  }
  const { x } = best!;
  const diffs = jsonDifferences(matchArgs(x.request, keys), args);
  const candidates = groups;
  const base = { nearestSeq: x.seq, ...(x.request.tool !== undefined ? { nearestTool: x.request.tool } : {}) };
  if (matchKey(x.request, keys) === matchKey(request, keys)) {
    if (x.kind === "mutation" && consumed.has(x.seq)) {
      return { ...base, reason: `same request as ${label(x)}, a mutation already answered (a mutation is answered once)` };
    }
    const next = nextMutation ? `; the next recorded mutation is ${label(nextMutation)}` : "; every recorded mutation is used";
    if (options.mode === "strict-order") return { ...base, reason: `same request as ${label(x)}, but out of the recorded order${next}` };
    return { ...base, reason: `same request as ${label(x)}, recorded in epoch ${x.epoch} but the replay is in epoch ${epoch}${next}` };
  }
  if (x.request.tool !== request.tool) {
    const tools = [...new Set(candidates.map((c) => c.tool).filter((t): t is string => t !== undefined))].sort();
    const listed = tools.length <= 12 ? tools.join(", ") : `${tools.slice(0, 12).join(", ")}, … (${tools.length} tools)`;
    return {
      ...base,
      path: "$.tool",
      expected: x.request.tool,
      actual: request.tool,
      reason: `no recorded call of ${request.tool ?? "(no tool)"}; the cassette records ${listed}`,
    };
  }
  const first = diffs[0];
  if (!first) return { ...base, reason: `flags differ from ${label(x)}: ${show(request.flags)} ≠ recorded ${show(x.request.flags)}` };
  const flagsDiffer = JSON.stringify(x.request.flags ?? {}) !== JSON.stringify(request.flags ?? {});
  const all = diffs.map((d) => `${d.path}: ${show(d.actual)} ≠ recorded ${show(d.expected)}`).join("; ");
  return {
    ...base,
    path: first.path,
    expected: first.expected,
    actual: first.actual,
    paths: diffs.map((d) => ({ path: d.path, expected: d.expected, actual: d.actual })),
    ...(flagsDiffer ? {} : { ignore: [...new Set(diffs.map((d) => ignorePath(d.path)))] }),
    reason: `differs from ${label(x)} at ${diffs.length === 1 ? "" : `${diffs.length} paths: `}${all}${flagsDiffer ? `; flags ${show(request.flags)} ≠ recorded ${show(x.request.flags)}` : ""}`,
  };
}

/** The `--ignore` spelling of a difference's path: `$.target.x` → `target.x`, array items by index. */
function ignorePath(path: string): string {
  return path.replace(/^\$\.?/, "");
}

/** Recorded requests with one match key and the same flags, in recorded order (so in epoch order). */
interface Group {
  tool: string | undefined;
  flags: string;
  members: RecordedExchange[];
  /** Each member's place among all exchanges (ties go to the earliest). */
  places: number[];
}

/** The distinct recorded requests by method (`call` for every tool call), built once per key index. */
function groupsOf(exchanges: readonly RecordedExchange[], index: KeyIndex): Map<string, Group[]> {
  const place = new Map<RecordedExchange, number>();
  for (const [i, x] of exchanges.entries()) place.set(x, i);
  const out = new Map<string, Group[]>();
  for (const list of index.values()) {
    const byFlags = new Map<string, Group>();
    for (const x of list) {
      const flags = JSON.stringify(x.request.flags ?? {});
      let g = byFlags.get(flags);
      if (!g) {
        g = { tool: x.request.tool, flags, members: [], places: [] };
        byFlags.set(flags, g);
        const method = x.request.method === "call" ? "call" : `method:${x.request.method}`;
        const groups = out.get(method);
        if (groups) groups.push(g);
        else out.set(method, [g]);
      }
      g.members.push(x);
      g.places.push(place.get(x) ?? Number.MAX_SAFE_INTEGER);
    }
  }
  return out;
}

/** The member recorded closest to `epoch` (the earliest of equally close ones), by binary search: members are in epoch order. */
function closestIn(g: Group, epoch: number): { x: RecordedExchange; distance: number; at: number } {
  const { members } = g;
  const firstAtOrAfter = (e: number) => {
    let lo = 0;
    let hi = members.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (members[mid]!.epoch < e) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const after = firstAtOrAfter(epoch);
  let pick = after < members.length ? after : -1;
  if (after > 0) {
    const before = firstAtOrAfter(members[after - 1]!.epoch);
    const dBefore = epoch - members[before]!.epoch;
    if (pick < 0 || dBefore < members[pick]!.epoch - epoch || (dBefore === members[pick]!.epoch - epoch && g.places[before]! < g.places[pick]!)) pick = before;
  }
  const x = members[pick]!;
  return { x, distance: Math.abs(x.epoch - epoch), at: g.places[pick]! };
}
