import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { RequestEntry, SummaryEntry, SynthesisBasis, SynthesizedKind, ToolKind } from "#src/schema/replay-log.js";
import type { ToolInfo } from "#src/driver/port.js";
import { isReadOnlyTool } from "#src/driver/catalogue.js";
import { FAULT_TABLE, faultOutcome, faultTakesEffect } from "#src/faults/fault-table.js";
import { listsCandidates, refusalResult } from "#src/faults/refusal.js";
import { pidOf, type WindowCandidate } from "#src/driver/refusals.js";
import { createFaultSelector, type SelectedFault } from "#src/faults/select.js";
import type { RecordedExchange } from "./exchanges.js";
import { keyOptions } from "./match-key.js";
import { createMatcher, type MatchMode } from "./matcher.js";
import type { Miss } from "./nearest.js";
import type { ReplayRequest } from "./request.js";
import { isLifecycleTool, recordsSessionEnded, sessionLabel } from "./session-lifecycle.js";
import { buildLifecycleAnswer, recordedLifecycleState } from "./lifecycle-answer.js";
import { offPathMutation, sameButToken, virtualExchange } from "./off-path.js";
import { matchKey } from "./match-key.js";
import { createTokenState, describeElement, elementsOf, type ElementIdentity } from "./token-state.js";
import { recordedOutcome } from "./tool-result.js";
import { prepareCassette, type PrepareOptions, type PreparedCassette } from "./prepared.js";
import { windowCandidates } from "./window-candidates.js";
import { createReplayMemo, type ReplayMemo } from "./memo.js";
import { summarise } from "./answer-summary.js";
import { freshLook, freshSnapshotId, recordedForm, recordedSnapshotId } from "./fresh-look.js";
import { TOKEN_RETIRING_CODES } from "#src/driver/outcome.js";
import { REFUSAL } from "#src/driver/refusals.js";
import { REFERENCE_DRIVER_VERSION } from "#src/driver/reference-version.js";
import { createUnchangedScreen } from "./unchanged-screen.js";

/** The recording, as events (built into exchanges here) or already prepared (built once, shared by many engines). */
export type EngineSource = PrepareOptions | { prepared: PreparedCassette };

/** The engine's recording, faults, seed and matching. */
export type EngineOptions = EngineSource & {
  faults?: FaultPlan;
  seed?: number;
  match?: MatchMode;
  ignore?: readonly string[];
  /** The recorded driver's version (the cassette header's), for answers built from the reference. */
  driverVersion?: string;
};

/** What the engine decided for one request; transports turn it into bytes. */
export interface Decision {
  n: number;
  request: ReplayRequest;
  kind: ToolKind;
  epochBefore: number;
  epochAfter: number;
  outcome: "replayed" | "faulted" | "unmatched" | "unanswered";
  exchange?: RecordedExchange;
  fault?: SelectedFault;
  miss?: Miss;
  /** The read was answered from an earlier epoch (nothing recorded in the current one). */
  fallbackEpoch?: number;
  /** A session-lifecycle call answered from this epoch out of the recorded order (nothing consumed). */
  lifecycleEpoch?: number;
  /** The driver's own answer built by the replay, not recorded (transports render it per transport). */
  synthetic?: SyntheticAnswer;
  /**
   * An answer off the recorded path (docs/matching.md), or a recorded one the recording's stand-in
   * built (the cassette's `synthesized`), logged as synthesized with its basis.
   */
  offPath?: { synthesized: SynthesizedKind; basis: SynthesisBasis };
  /** A target-style refusal fault: the requested pid's windows as the cassette last showed them. */
  candidates?: readonly WindowCandidate[];
}

/** The answer chosen for a request, and what it does to the matcher. */
interface Chosen {
  exchange: RecordedExchange;
  /** The recorded mutation (or lifecycle call) the answer stands for, committed as `commit` says. */
  consumes?: RecordedExchange;
  commit: "normal" | "skip" | "none";
  fallbackEpoch?: number;
  lifecycleEpoch?: number;
  synthesized?: SynthesizedKind;
  basis?: SynthesisBasis;
}

/** Answers the driver gives by rule, which the replay can give without a recording of them. */
export type SyntheticAnswer =
  /** The call names a session that `end_session` ended (docs/reference/cua-driver-contract.md §3.4). */
  | { kind: typeof REFUSAL.session_ended; label: string }
  /** The tool is not in the driver's tool list: refused before any lookup (docs/reference/cua-driver-contract.md §0.5). */
  | { kind: "permission_denied" };

/**
 * The replay engine: decides each request's answer from the recording, the faults and the driver
 * state model.
 */
export interface Engine {
  readonly exchanges: readonly RecordedExchange[];
  readonly tools: readonly ToolInfo[] | undefined;
  readonly epoch: number;
  /** Requests numbered so far: the `n` the next request gets. */
  readonly requests: number;
  kindOf(request: ReplayRequest): ToolKind;
  /** `at`: when the request arrived (ms since the replay started), for faults that read time (docs/faults.md). */
  decide(request: ReplayRequest, at?: number): Decision;
  /** A request answered without a recorded exchange (e.g. `--version` rebuilt from the header). */
  synthesized(request: ReplayRequest): Decision;
  /** A request read but never answered (an MCP stream stuck on an earlier call): logged, nothing matched. */
  unanswered(request: ReplayRequest): Decision;
  /** The replay log entry for a decision, once the transport knows what it served. */
  entry(decision: Decision, extra: { tMs: number; durationMs?: number; served?: string; exitCode?: number | null }): RequestEntry;
  summary(tMs: number): SummaryEntry;
}

/** The pure replay engine: cassette events in, decisions and log entries out. */
export function createEngine(options: EngineOptions): Engine {
  const prepared = "prepared" in options ? options.prepared : prepareCassette(options);
  const { exchanges, tools, classified } = prepared;
  const memo = exchanges[0]?.memo ?? createReplayMemo();
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
  let synthesizedCount = 0;
  /** The first fault this replay injected: an unmatched request after it is off the recorded path. */
  let firstFault: string | undefined;
  let unansweredCount = 0;
  /** Recorded mutations tried in this replay that a fault kept from taking effect (seq → why). */
  const noEffect = new Map<number, string>();
  const tokens = createTokenState();
  /** Snapshot ids of looks this replay built → the recorded snapshot each was built from. */
  const builtFrom = new Map<string, string>();
  /** Recorded `get_window_state` answers (seq) this replay has served: served again, each is a fresh look. */
  const servedLooks = new Set<number>();
  const unchanged = createUnchangedScreen();

  /**
   * The element a recorded token names: in the last recorded get_window_state answer that lists it
   * (looked for from the end, answers read on demand; each token looked up once).
   */
  const recordedElements = new Map<string, ElementIdentity | undefined>();
  const recordedElement = (token: string): ElementIdentity | undefined => {
    if (recordedElements.has(token)) return recordedElements.get(token);
    let found: ElementIdentity | undefined;
    for (let i = exchanges.length - 1; i >= 0 && !found; i--) {
      const x = exchanges[i]!;
      if (x.request.tool !== "get_window_state") continue;
      const outcome = recordedOutcome(x);
      if (outcome.type !== "result" || !outcome.raw.includes(token)) continue;
      try {
        const s = (JSON.parse(outcome.raw) as { structuredContent?: Record<string, unknown> }).structuredContent;
        if (s) found = elementsOf(s).get(token);
      } catch {}
    }
    recordedElements.set(token, found);
    return found;
  };

  /** The same request, or the same action aimed at the same element through a token from a newer look. */
  const equivalent = (request: ReplayRequest, x: RecordedExchange): "same" | string | undefined => {
    if (matchKey(recordedForm(request, builtFrom), keys) === matchKey(x.request, keys)) return "same";
    if (!sameButToken(request, x, keys)) return undefined;
    const mine = (request.args as { element_token?: unknown }).element_token;
    const theirs = (x.request.args as { element_token?: unknown } | undefined)?.element_token;
    if (typeof mine !== "string" || typeof theirs !== "string") return undefined;
    const served = tokens.servedElement(mine);
    const recorded = recordedElement(theirs);
    if (!served || !recorded || describeElement(served) !== describeElement(recorded)) return undefined;
    return `token ${mine} names ${describeElement(served)} in the look this replay served, the element the recording's ${theirs} named`;
  };

  /** The answer off the recorded path, or the missing fact that keeps the replay from building one. */
  const offPath = (request: ReplayRequest, kind: ToolKind, label: string | undefined): Chosen | { miss: true; missing: string } => {
    if (kind === "other") return { miss: true, missing: "" };
    if (isLifecycleTool(request.tool) && (request.tool === "start_session" || request.tool === "end_session")) {
      return lifecycle(request, kind, label, undefined) ?? { miss: true, missing: "" };
    }
    if (kind === "mutation") {
      const off = offPathMutation({
        matcher,
        noEffect,
        afterFault: firstFault !== undefined,
        equivalent: (x) => equivalent(request, x),
        like: { request, keys, index: prepared.keyIndex(keys) },
      });
      if (off) {
        const chosen: Chosen = { exchange: off.exchange, consumes: off.exchange, commit: off.commit, synthesized: off.synthesized, basis: off.basis };
        return staleToken(request, chosen) ?? chosen;
      }
      // no recorded answer, but the driver refuses a token it no longer honours whatever it aims at
      return staleToken(request, undefined) ?? { miss: true, missing: "" };
    }
    // reads follow the epoch backwards, never forwards (docs/decisions/0011): a later state is no truth here
    return { miss: true, missing: "" };
  };

  /** A recorded answer checked against this replay's state: the session label and revival, the element token. */
  /** `withheld`: a fault keeps the recorded answer from the harness (its class is not `done`). */
  const fitState = (request: ReplayRequest, chosen: Chosen, label: string | undefined, withheld: boolean): Chosen => {
    const tool = request.tool;
    if ((tool === "start_session" || tool === "end_session") && label !== undefined) {
      // the recorded bytes stand when the recording named the same label; only another label or state is rebuilt
      const recorded = recordedLifecycleState(chosen.exchange);
      const recordedLabel = sessionLabel(chosen.exchange.request.args);
      const revived = tool === "start_session" ? ended.has(label) : undefined;
      if (recorded && (recordedLabel !== label || (revived !== undefined && recorded.revived !== undefined && recorded.revived !== revived))) {
        return lifecycle(request, chosen.exchange.kind, label, chosen) ?? chosen;
      }
      return chosen;
    }
    return staleToken(request, chosen) ?? (withheld ? chosen : freshRead(request, chosen));
  };

  /**
   * A recorded look the replay served already, asked for again (a read the recording did not hold:
   * one more than it recorded in this state, or one answered from an earlier state): the driver makes
   * a new snapshot on every read, so it is served with a new snapshot id and new element tokens (the
   * recorded elements), and a later request naming them is matched as if it named the recorded ones.
   */
  const freshRead = (request: ReplayRequest, chosen: Chosen): Chosen => {
    if (request.tool !== "get_window_state" || chosen.exchange.kind !== "read" || chosen.exchange.virtual) return chosen;
    if (!servedLooks.has(chosen.exchange.seq)) return chosen;
    const recorded = recordedSnapshotId(chosen.exchange);
    if (recorded === undefined) return chosen;
    const fresh = freshSnapshotId(builtFrom.size + 1);
    builtFrom.set(fresh, recorded);
    const x = chosen.exchange;
    return {
      ...chosen,
      exchange: freshLook(x, recorded, fresh),
      synthesized: "fresh_look",
      basis: {
        source: "cassette",
        seq: x.seq,
        detail: `the recorded look #${x.seq} (snapshot ${recorded}), served already in this replay, with snapshot id ${fresh}: the driver makes a new snapshot on every read, so its id and element tokens are new; its elements are the recorded ones, and a token ${fresh}:i names what ${recorded}:i named`,
      },
    };
  };

  /** start_session / end_session built for this label and state, from a recorded answer or the reference. */
  const lifecycle = (request: ReplayRequest, kind: ToolKind, label: string | undefined, matched: Chosen | undefined): Chosen | undefined => {
    if (label === undefined) return undefined;
    const built = buildLifecycleAnswer({
      tool: request.tool!,
      label,
      revived: ended.has(label),
      exchanges,
      driverVersion: options.driverVersion ?? REFERENCE_DRIVER_VERSION,
    });
    if (!built.ok) return undefined;
    const exchange = virtualExchange({ request, kind, epoch: matcher.epoch, raw: built.result.raw });
    const { exchange: _recorded, ...keep } = matched ?? { commit: "none" as const };
    return { ...keep, exchange, synthesized: "lifecycle", basis: built.result.basis };
  };

  /** The driver's stale-token refusal, when the token the request names is no longer honoured in this state. */
  const staleToken = (request: ReplayRequest, chosen: Chosen | undefined): Chosen | undefined => {
    if (kindOf(request) !== "mutation") return undefined;
    const outcome = chosen ? recordedOutcome(chosen.exchange) : undefined;
    if (outcome?.type === "result" && outcome.raw.includes('"isError":true')) return undefined; // the recording refused it already
    const why = tokens.staleReason(request);
    if (why === undefined) return undefined;
    const args = request.args && typeof request.args === "object" ? (request.args as Record<string, unknown>) : {};
    const raw = refusalResult({ code: REFUSAL.stale_element_token, tool: request.tool ?? "", args });
    return {
      exchange: virtualExchange({ request, kind: "mutation", epoch: matcher.epoch, raw }),
      commit: "none",
      synthesized: REFUSAL.stale_element_token,
      basis: { source: "reference", detail: `the driver's stale_element_token refusal (docs/reference/cua-driver-contract.md §3.2): ${why}; nothing consumed` },
    };
  };

  return {
    exchanges,
    tools,
    get epoch() {
      return matcher.epoch;
    },
    get requests() {
      return n;
    },
    kindOf,
    decide(request, at) {
      const kind = kindOf(request);
      const epochBefore = matcher.epoch;
      const base = { n: n++, request, kind, epochBefore };
      if (kind !== "other" && request.tool !== undefined && !classified.has(request.tool)) {
        // the driver authorizes before it looks a tool up: no fault, nothing consumed
        served++;
        synthesizedCount++;
        return { ...base, epochAfter: epochBefore, outcome: "replayed", synthetic: { kind: "permission_denied" } };
      }
      const label = kind === "other" || request.tool === undefined ? undefined : sessionLabel(request.args);
      // a token of a look the replay built is matched as the recorded look's token it stands for
      const asRecorded = recordedForm(request, builtFrom);
      const result0 = label !== undefined && ended.has(label) && request.tool !== "start_session" ? matcher.match(asRecorded, kind) : undefined;
      if (label !== undefined && result0 && !("exchange" in result0 && recordsSessionEnded(result0.exchange))) {
        // the driver refuses any call on an ended session before the tool runs: nothing to match
        served++;
        synthesizedCount++;
        return { ...base, epochAfter: epochBefore, outcome: "replayed", synthetic: { kind: REFUSAL.session_ended, label } };
      }
      const fault =
        kind === "other"
          ? undefined
          : selector.next({ tool: request.tool ?? "", kind, transport: request.transport, stream: request.stream, tMs: at, label: sessionLabel(request.args) });
      // a fault that keeps the look from the harness (a refusal, no answer) serves no snapshot
      const withheld = fault !== undefined && faultOutcome(fault.fault.kind) !== "done";
      const result = result0 ?? matcher.match(asRecorded, kind);
      // strict-order pins every request to the recorded order: nothing is answered off the path
      const strict = options.match === "strict-order";
      const chosen =
        "miss" in result
          ? strict
            ? { miss: true as const, missing: "" }
            : offPath(request, kind, label)
          : fitState(request, { ...result, consumes: result.exchange, commit: "normal" as const }, label, withheld);
      if ("miss" in chosen) {
        unmatched++;
        const miss = "miss" in result ? result.miss : { reason: chosen.missing };
        return { ...base, epochAfter: epochBefore, outcome: "unmatched", miss: firstFault ? { ...miss, afterFault: firstFault } : miss };
      }
      const { exchange } = chosen;
      const tookEffect = fault ? faultTakesEffect(fault.fault.kind) : true;
      const real = chosen.consumes;
      // a mutation the recorder kept from the driver is consumed as recorded: it never changed the desktop
      const keptFromDriver = real?.fault?.forwarded === false;
      if (real && chosen.commit === "normal") matcher.commit(real, { advance: tookEffect || keptFromDriver, outOfOrder: chosen.lifecycleEpoch !== undefined });
      else if (real && chosen.commit === "skip" && tookEffect) matcher.skipTo(real);
      if (fault && !tookEffect && kind === "mutation" && real && !matcher.isConsumed(real)) {
        noEffect.set(real.seq, `did not take effect (${fault.fault.kind} at request #${base.n})`);
      }
      if (label !== undefined && tookEffect && request.tool === "end_session") ended.add(label);
      if (label !== undefined && tookEffect && request.tool === "start_session") ended.delete(label);
      if (fault) {
        faults++;
        firstFault ??= `request #${base.n} (${request.tool ?? request.method}, ${fault.fault.kind})`;
      } else served++;
      // ---- no_effect: the reads after it repeat the look before it, logged as synthesized (unchanged-screen.ts)
      if (fault?.fault.kind === "no_effect" && kind === "mutation") unchanged.noted({ n: base.n, tool: request.tool ?? "", epoch: matcher.epoch });
      // only an answer served as recorded (on time or late) repeats the look; a refusal or a rewritten result does not
      const servedAsRecorded = !fault || (!FAULT_TABLE[fault.fault.kind].changesResult && !FAULT_TABLE[fault.fault.kind].breaksTransport);
      // an answer the recording's stand-in built, served as recorded, is logged with the basis it recorded (decision 0271)
      const recordedSynthesis = exchange.recordedSynthesis;
      if (recordedSynthesis && servedAsRecorded && !chosen.synthesized) {
        Object.assign(chosen, { synthesized: recordedSynthesis.kind, basis: recordedSynthesis.basis });
      }
      // a look served again still gets a new snapshot id (fresh_look): the screen is the unchanged one all the same
      const unchangedBasis =
        kind === "read" && servedAsRecorded && (!chosen.synthesized || chosen.synthesized === "fresh_look")
          ? unchanged.basisFor({ epoch: matcher.epoch, exchange })
          : undefined;
      if (unchangedBasis) {
        const fresh = chosen.synthesized === "fresh_look" && chosen.basis?.detail ? `; served again, so as a fresh look: ${chosen.basis.detail}` : "";
        Object.assign(chosen, { synthesized: "unchanged_screen", basis: { ...unchangedBasis, detail: `${unchangedBasis.detail}${fresh}` } });
      }
      // ----
      if (chosen.synthesized) synthesizedCount++;
      const listsWindows = fault?.fault.kind === "refusal" && listsCandidates(fault.fault.code);
      const args = request.args && typeof request.args === "object" ? (request.args as Record<string, unknown>) : {};
      return {
        ...base,
        epochAfter: matcher.epoch,
        outcome: fault ? "faulted" : "replayed",
        exchange,
        ...(fault ? { fault } : {}),
        ...(chosen.fallbackEpoch !== undefined ? { fallbackEpoch: chosen.fallbackEpoch } : {}),
        ...(chosen.lifecycleEpoch !== undefined ? { lifecycleEpoch: chosen.lifecycleEpoch } : {}),
        ...(chosen.synthesized && chosen.basis ? { offPath: { synthesized: chosen.synthesized, basis: chosen.basis } } : {}),
        ...(listsWindows ? { candidates: windowCandidates({ exchanges, epoch: epochBefore, pid: pidOf(args) }) } : {}),
      };
    },
    unanswered(request) {
      unansweredCount++;
      return { n: n++, request, kind: kindOf(request), epochBefore: matcher.epoch, epochAfter: matcher.epoch, outcome: "unanswered" };
    },
    synthesized(request) {
      served++;
      return { n: n++, request, kind: kindOf(request), epochBefore: matcher.epoch, epochAfter: matcher.epoch, outcome: "replayed" };
    },
    entry(d, extra) {
      const served = extra.served !== undefined ? summariseResult(extra.served, memo) : undefined;
      // what was served is what the driver's state now reflects (snapshots issued, tokens refused)
      if (extra.served !== undefined && d.outcome !== "unmatched") {
        tokens.served(d.request, extra.served);
        if (d.exchange && !d.exchange.virtual && d.request.tool === "get_window_state") servedLooks.add(d.exchange.seq);
        if (served?.refusal_code !== undefined && TOKEN_RETIRING_CODES.includes(served.refusal_code)) tokens.refused(d.request);
      }
      const synthesized = d.synthetic ? { synthesized: d.synthetic.kind, basis: syntheticBasis(d.synthetic) } : d.offPath;
      if (served && extra.exitCode !== undefined) served.exit_code = extra.exitCode;
      return {
        type: "request",
        n: d.n,
        t_ms: extra.tMs,
        transport: d.request.transport,
        ...(d.request.stream !== undefined ? { stream: d.request.stream } : {}),
        method: d.request.method,
        ...(d.request.era !== undefined ? { era: d.request.era } : {}),
        ...(d.request.tool !== undefined ? { tool: d.request.tool } : {}),
        ...(d.request.args !== undefined ? { args: d.request.args } : {}),
        kind: d.kind,
        epoch_before: d.epochBefore,
        epoch_after: d.epochAfter,
        outcome: d.outcome,
        ...(d.exchange && !d.exchange.virtual ? { matched_seq: d.exchange.seq } : {}),
        ...(d.fallbackEpoch !== undefined ? { fallback_epoch: d.fallbackEpoch } : {}),
        ...(d.lifecycleEpoch !== undefined ? { lifecycle_epoch: d.lifecycleEpoch } : {}),
        ...(synthesized ?? {}),
        ...(d.fault ? { fault: { kind: d.fault.fault.kind, rule: d.fault.rule, ...(paramsOf(d.fault) ? { params: paramsOf(d.fault) } : {}) } } : {}),
        ...(served ? { result: served } : extra.exitCode !== undefined ? { result: { exit_code: extra.exitCode } } : {}),
        ...(d.miss
          ? {
              unmatched: {
                reason: d.miss.reason,
                ...(d.miss.nearestSeq !== undefined ? { nearest_seq: d.miss.nearestSeq } : {}),
                ...(d.miss.path !== undefined ? { path: d.miss.path } : {}),
                ...(d.miss.ignore !== undefined ? { ignore: d.miss.ignore } : {}),
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
        synthesized: synthesizedCount,
        unanswered: unansweredCount,
        unused: matcher.unused().map((x) => ({ seq: x.seq, ...(x.request.tool ? { tool: x.request.tool } : {}), kind: x.kind })),
      };
    },
  };
}

function syntheticBasis(s: SyntheticAnswer): SynthesisBasis {
  const detail =
    s.kind === "permission_denied"
      ? "the driver's rule: a tool it does not list is refused before any lookup (docs/reference/cua-driver-contract.md §0.5)"
      : `the driver's rule: a call on session '${s.label}', ended in this replay, is refused (docs/reference/cua-driver-contract.md §3.4)`;
  return { source: "reference", detail };
}

function paramsOf(f: SelectedFault): Record<string, unknown> | undefined {
  const { kind: _kind, ...params } = f.fault;
  return Object.keys(params).length > 0 ? params : undefined;
}

/** The judging summary of a served result: error flag, refusal code, effect, emptiness, window ids. */
export function summariseResult(raw: string, memo?: ReplayMemo): NonNullable<RequestEntry["result"]> {
  // replays serve the same recorded results again and again: each is summarised once per
  // preparation (the results are the keys: a budget of characters, since one may hold a screenshot)
  const out = memo
    ? memo.summaries.through(
        raw,
        () => summarise(raw),
        () => 256 + raw.length,
      )
    : summarise(raw);
  return { ...out, ...(out.window_ids ? { window_ids: [...out.window_ids] } : {}) };
}
