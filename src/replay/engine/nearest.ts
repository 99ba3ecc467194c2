import type { RecordedExchange } from "./exchanges.js";
import { jsonDifferences } from "./json-path.js";
import { matchArgs, matchKey, type KeyOptions } from "./match-key.js";
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
}): Miss {
  const { request, exchanges, keys, epoch, consumed, nextMutation } = options;
  const candidates = exchanges.filter((x) => (request.method === "call" ? x.request.method === "call" : x.request.method === request.method));
  if (candidates.length === 0) {
    return { reason: request.method === "call" ? "the cassette has no tool calls" : `the cassette never recorded ${request.method}` };
  }
  const args = matchArgs(request, keys);
  let best: { x: RecordedExchange; score: number; diffs: ReturnType<typeof jsonDifferences> } | undefined;
  for (const x of candidates) {
    const diffs = jsonDifferences(matchArgs(x.request, keys), args);
    const score =
      (x.request.tool !== request.tool ? 1000 : 0) + diffs.length + (JSON.stringify(x.request.flags ?? {}) === JSON.stringify(request.flags ?? {}) ? 0 : 1);
    const better = !best || score < best.score || (score === best.score && Math.abs(x.epoch - epoch) < Math.abs(best.x.epoch - epoch));
    if (better) best = { x, score, diffs };
  }
  const { x, diffs } = best!;
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
    const tools = [...new Set(candidates.map((c) => c.request.tool).filter((t): t is string => t !== undefined))].sort();
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
