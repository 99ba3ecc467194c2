import type { CassetteEvent } from "../../schema/cassette.js";
import type { FaultPlan } from "../../schema/fault-plan.js";
import type { RequestEntry, SummaryEntry, ToolKind } from "../../schema/replay-log.js";
import type { ToolInfo } from "../../driver/port.js";
import { isReadOnlyTool } from "../../driver/tool-kinds.js";
import { listsCandidates, pidOf, type WindowCandidate } from "../../faults/refusal.js";
import { createFaultSelector, type SelectedFault } from "../../faults/select.js";
import type { RecordedExchange } from "./exchanges.js";
import type { FrameLookup } from "./frames.js";
import { keyOptions } from "./match-key.js";
import { createMatcher, type MatchMode } from "./matcher.js";
import type { Miss } from "./nearest.js";
import { rawMember } from "./raw-json.js";
import type { ReplayRequest } from "./request.js";
import { recordsSessionEnded, sessionLabel } from "./session-lifecycle.js";
import { prepareCassette, type PrepareOptions, type PreparedCassette } from "./prepared.js";
import { windowCandidates } from "./window-candidates.js";

/** The recording, as events (built into exchanges here) or already prepared (built once, shared by many engines). */
export type EngineSource = PrepareOptions | { prepared: PreparedCassette };

export type EngineOptions = EngineSource & {
  faults?: FaultPlan;
  seed?: number;
  match?: MatchMode;
  ignore?: readonly string[];
};

/** What the engine decided for one request; transports turn it into bytes. */
export interface Decision {
  n: number;
  request: ReplayRequest;
  kind: ToolKind;
  epochBefore: number;
  epochAfter: number;
  outcome: "replayed" | "faulted" | "unmatched";
  exchange?: RecordedExchange;
  fault?: SelectedFault;
  miss?: Miss;
  /** The read was answered from an earlier epoch (nothing recorded in the current one). */
  fallbackEpoch?: number;
  /** A session-lifecycle call answered from this epoch out of the recorded order (nothing consumed). */
  lifecycleEpoch?: number;
  /** The driver's own answer built by the replay, not recorded (transports render it per transport). */
  synthetic?: SyntheticAnswer;
  /** A target-style refusal fault: the requested pid's windows as the cassette last showed them. */
  candidates?: readonly WindowCandidate[];
}

/** Answers the driver gives by rule, which the replay can give without a recording of them. */
export type SyntheticAnswer =
  /** The call names a session that `end_session` ended (CONTRACT.md §3.4). */
  | { kind: "session_ended"; label: string }
  /** The tool is not in the driver's tool list: refused before any lookup (CONTRACT.md §0.5). */
  | { kind: "permission_denied" };

/** Faults after which the recorded mutation counts as done (the epoch advances). */
const ADVANCES: ReadonlySet<string> = new Set(["delay", "timeout_after_effect", "truncated", "corrupt_image", "empty"]);

export interface Engine {
  readonly exchanges: readonly RecordedExchange[];
  readonly tools: readonly ToolInfo[] | undefined;
  readonly epoch: number;
  kindOf(request: ReplayRequest): ToolKind;
  decide(request: ReplayRequest): Decision;
  /** A request answered without a recorded exchange (e.g. `--version` rebuilt from the header). */
  synthesized(request: ReplayRequest): Decision;
  /** The replay log entry for a decision, once the transport knows what it served. */
  entry(decision: Decision, extra: { tMs: number; durationMs?: number; served?: string; exitCode?: number | null }): RequestEntry;
  summary(tMs: number): SummaryEntry;
}

/** The pure replay engine: cassette events in, decisions and log entries out. */
export function createEngine(options: EngineOptions): Engine {
  const prepared = "prepared" in options ? options.prepared : prepareCassette(options);
  const { exchanges, tools, classified } = prepared;
  const keys = keyOptions({ ...(options.ignore ? { ignore: options.ignore } : {}) });
  const matcher = createMatcher({ exchanges, mode: options.match ?? "per-key", keys, index: prepared.keyIndex(keys) });
  const selector = createFaultSelector({
    ...(options.faults ? { plan: options.faults } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  let n = 0;
  let served = 0;
  let unmatched = 0;
  let faults = 0;
  /** Sessions the harness ended with end_session and has not started again. */
  const ended = new Set<string>();
  const kindOf = (request: ReplayRequest): ToolKind =>
    request.method !== "call" || request.tool === undefined ? "other" : isReadOnlyTool(request.tool, tools) ? "read" : "mutation";

  return {
    exchanges,
    tools,
    get epoch() {
      return matcher.epoch;
    },
    kindOf,
    decide(request) {
      const kind = kindOf(request);
      const epochBefore = matcher.epoch;
      const base = { n: n++, request, kind, epochBefore };
      if (kind !== "other" && request.tool !== undefined && !classified.has(request.tool)) {
        // the driver authorizes before it looks a tool up: no fault, nothing consumed
        served++;
        return { ...base, epochAfter: epochBefore, outcome: "replayed", synthetic: { kind: "permission_denied" } };
      }
      const label = kind === "other" || request.tool === undefined ? undefined : sessionLabel(request.args);
      const result0 = label !== undefined && ended.has(label) && request.tool !== "start_session" ? matcher.match(request, kind) : undefined;
      if (label !== undefined && result0 && !("exchange" in result0 && recordsSessionEnded(result0.exchange))) {
        // the driver refuses any call on an ended session before the tool runs: nothing to match
        served++;
        return { ...base, epochAfter: epochBefore, outcome: "replayed", synthetic: { kind: "session_ended", label } };
      }
      const fault = kind === "other" ? undefined : selector.next({ tool: request.tool ?? "", kind });
      const result = result0 ?? matcher.match(request, kind);
      if ("miss" in result) {
        unmatched++;
        return { ...base, epochAfter: epochBefore, outcome: "unmatched", miss: result.miss };
      }
      const { exchange } = result;
      const tookEffect = fault ? ADVANCES.has(fault.fault.kind) : true;
      matcher.commit(exchange, { advance: tookEffect, outOfOrder: result.lifecycleEpoch !== undefined });
      if (label !== undefined && tookEffect && request.tool === "end_session") ended.add(label);
      if (label !== undefined && tookEffect && request.tool === "start_session") ended.delete(label);
      if (fault) faults++;
      else served++;
      const listsWindows = fault?.fault.kind === "refusal" && listsCandidates(fault.fault.code);
      const args = request.args && typeof request.args === "object" ? (request.args as Record<string, unknown>) : {};
      return {
        ...base,
        epochAfter: matcher.epoch,
        outcome: fault ? "faulted" : "replayed",
        exchange,
        ...(fault ? { fault } : {}),
        ...(result.fallbackEpoch !== undefined ? { fallbackEpoch: result.fallbackEpoch } : {}),
        ...(result.lifecycleEpoch !== undefined ? { lifecycleEpoch: result.lifecycleEpoch } : {}),
        ...(listsWindows ? { candidates: windowCandidates({ exchanges, epoch: epochBefore, pid: pidOf(args) }) } : {}),
      };
    },
    synthesized(request) {
      served++;
      return { n: n++, request, kind: kindOf(request), epochBefore: matcher.epoch, epochAfter: matcher.epoch, outcome: "replayed" };
    },
    entry(d, extra) {
      const served = extra.served !== undefined ? summariseResult(extra.served) : undefined;
      if (served && extra.exitCode !== undefined) served.exit_code = extra.exitCode;
      return {
        type: "request",
        n: d.n,
        t_ms: extra.tMs,
        transport: d.request.transport,
        ...(d.request.stream !== undefined ? { stream: d.request.stream } : {}),
        method: d.request.method,
        ...(d.request.tool !== undefined ? { tool: d.request.tool } : {}),
        ...(d.request.args !== undefined && d.request.method === "call" ? { args: d.request.args } : {}),
        kind: d.kind,
        epoch_before: d.epochBefore,
        epoch_after: d.epochAfter,
        outcome: d.outcome,
        ...(d.exchange ? { matched_seq: d.exchange.seq } : {}),
        ...(d.fallbackEpoch !== undefined ? { fallback_epoch: d.fallbackEpoch } : {}),
        ...(d.lifecycleEpoch !== undefined ? { lifecycle_epoch: d.lifecycleEpoch } : {}),
        ...(d.synthetic ? { synthesized: d.synthetic.kind } : {}),
        ...(d.fault
          ? { fault: { kind: d.fault.fault.kind, rule: d.fault.rule, ...(paramsOf(d.fault) ? { params: paramsOf(d.fault) } : {}) } }
          : {}),
        ...(served ? { result: served } : extra.exitCode !== undefined ? { result: { exit_code: extra.exitCode } } : {}),
        ...(d.miss
          ? {
              unmatched: {
                reason: d.miss.reason,
                ...(d.miss.nearestSeq !== undefined ? { nearest_seq: d.miss.nearestSeq } : {}),
                ...(d.miss.path !== undefined ? { path: d.miss.path } : {}),
              },
            }
          : {}),
        ...(extra.durationMs !== undefined ? { duration_ms: extra.durationMs } : {}),
      };
    },
    summary(tMs) {
      return {
        type: "summary",
        t_ms: tMs,
        served,
        unmatched,
        faults,
        unused: matcher.unused().map((x) => ({ seq: x.seq, ...(x.request.tool ? { tool: x.request.tool } : {}), kind: x.kind })),
      };
    },
  };
}

function paramsOf(f: SelectedFault): Record<string, unknown> | undefined {
  const { kind: _kind, ...params } = f.fault;
  return Object.keys(params).length > 0 ? params : undefined;
}

/** The judging summary of a served result: error flag, refusal code, effect, emptiness, window ids. */
export function summariseResult(raw: string): NonNullable<RequestEntry["result"]> {
  const hit = summaries.get(raw);
  if (hit) return { ...hit, ...(hit.window_ids ? { window_ids: [...hit.window_ids] } : {}) };
  const out = summarise(raw);
  if (summaries.size > 256) summaries.clear();
  summaries.set(raw, out);
  return { ...out, ...(out.window_ids ? { window_ids: [...out.window_ids] } : {}) };
}

// replays serve the same recorded results again and again: summarise each once
const summaries = new Map<string, NonNullable<RequestEntry["result"]>>();

function summarise(raw: string): NonNullable<RequestEntry["result"]> {
  const out: NonNullable<RequestEntry["result"]> = {};
  let value: { isError?: boolean; structuredContent?: Record<string, unknown> };
  try {
    value = JSON.parse(raw) as typeof value;
  } catch {
    return out;
  }
  if (value.isError) out.isError = true;
  const s = value.structuredContent;
  if (s && typeof s === "object") {
    const refusal = s.refusal as { code?: unknown } | undefined;
    const code = typeof refusal?.code === "string" ? refusal.code : typeof s.code === "string" ? s.code : undefined;
    if (code) out.refusal_code = code;
    if (typeof s.effect === "string") out.effect = s.effect;
    if (Array.isArray(s.windows)) {
      out.empty = s.windows.length === 0;
      out.window_ids = s.windows.map((w) => (w as { window_id?: number }).window_id).filter((id): id is number => typeof id === "number");
    }
    if (typeof s.window_id === "number") out.window_ids = [s.window_id];
  }
  return out;
}

