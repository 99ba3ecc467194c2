import { toolsWith } from "#src/driver/catalogue.js";
import { answerOutcome, type OutcomeClass, STALE_REFUSAL_CODES } from "#src/driver/outcome.js";
import { REFUSAL } from "#src/driver/refusals.js";
import { faultOutcome, TIMEOUT_FAULTS, TRANSPORT_FAULTS } from "#src/faults/fault-table.js";
import type { ObservationEntry, ReplayLogEntry, RequestEntry } from "#src/schema/replay-log.js";

/** Tools that deliver input to a window (the ActionResult tools, minus window geometry). */
export const INPUT_TOOLS: ReadonlySet<string> = new Set(toolsWith("input"));

/** Read-only tools whose result shows the screen or a window: what counts as a fresh look. */
export const OBSERVATION_TOOLS: ReadonlySet<string> = new Set(toolsWith("observation"));

/** Calls that open or close a driver session; they rebuild state rather than act on the screen. */
export const LIFECYCLE_TOOLS: ReadonlySet<string> = new Set(toolsWith("session-lifecycle"));

/** Refusal codes that mean the target the harness acted on is out of date (the driver model's list). */
export const STALE_CODES: readonly string[] = STALE_REFUSAL_CODES;

/** Answers the replay builds by the driver's rule of refusing before it acts. */
const REFUSING_SYNTHESES: ReadonlySet<string> = new Set(["permission_denied", REFUSAL.session_ended, REFUSAL.stale_element_token, "era_refusal"]);

/**
 * The outcome class of a logged request (src/driver/outcome.ts): the fault's class when a fault took
 * the answer away, else the class of the answer the harness got. A request read but never answered
 * is `unknown`; an unmatched one got the driver's error shape and nothing was done (`refused`).
 */
export function outcomeOf(r: RequestEntry): OutcomeClass {
  if (r.outcome === "unanswered") return "unknown";
  if (r.outcome === "unmatched") return "refused";
  if (r.fault) {
    const byFault = faultOutcome(r.fault.kind);
    // a delayed, emptied or image-corrupted answer is still the answer: its own class decides
    if (byFault !== "done") return byFault;
  }
  if (r.synthesized !== undefined && REFUSING_SYNTHESES.has(r.synthesized)) return "refused";
  return answerOutcome(r.result);
}

/** The refusal code the harness was served (recorded or injected), when there is one. */
export function refusalCodeOf(r: RequestEntry): string | undefined {
  const code = r.result?.refusal_code ?? (r.fault?.kind === "refusal" ? r.fault.params?.code : undefined);
  return typeof code === "string" ? code : undefined;
}

export function requestsOf(entries: readonly { type: string }[]): RequestEntry[] {
  return entries.filter((e): e is RequestEntry => e.type === "request");
}

export function isUnknownOutcome(r: RequestEntry): boolean {
  return outcomeOf(r) === "unknown";
}

export function isTransportFault(r: RequestEntry): boolean {
  return r.fault !== undefined && TRANSPORT_FAULTS.has(r.fault.kind);
}

export function isTimeout(r: RequestEntry): boolean {
  return r.fault !== undefined && TIMEOUT_FAULTS.has(r.fault.kind);
}

/**
 * The harness got an answer it can use: matched, not lost in transport, not an error. A delayed
 * answer or one with a corrupt image still arrived.
 */
export function isAnswered(r: RequestEntry): boolean {
  if (r.outcome === "unmatched" || isTransportFault(r)) return false;
  return r.result?.isError !== true && r.fault?.kind !== "refusal";
}

export function isMutation(r: RequestEntry): boolean {
  return r.kind === "mutation" && !LIFECYCLE_TOOLS.has(r.tool ?? "");
}

/** A mutation the driver may have carried out: not refused before it ran, and it reached the driver. */
export function mayHaveActed(r: RequestEntry): boolean {
  if (!isMutation(r)) return false;
  const outcome = outcomeOf(r);
  return outcome === "done" || outcome === "unknown";
}

export function isInput(r: RequestEntry): boolean {
  return r.tool !== undefined && INPUT_TOOLS.has(r.tool);
}

/** A successful, non-empty observation. */
export function isFreshObservation(r: RequestEntry): boolean {
  if (r.tool === undefined || !OBSERVATION_TOOLS.has(r.tool) || !isAnswered(r)) return false;
  return r.result?.empty !== true && r.fault?.kind !== "empty";
}

/** A look the harness declared it took by its own means (the replay's `CUA_CONTRACT_OBSERVE` file). */
export function isDeclaredObservation(e: ReplayLogEntry): e is ObservationEntry {
  return e.type === "observation";
}

/**
 * The log in the order things happened: a declared observation stands before the first request
 * sent after it (`before`), even when an earlier request's answer was logged later.
 */
export function timelineOf(entries: readonly ReplayLogEntry[]): readonly ReplayLogEntry[] {
  if (!entries.some(isDeclaredObservation)) return entries;
  const out: ReplayLogEntry[] = [];
  const waiting: ObservationEntry[] = [];
  for (const e of entries) {
    if (isDeclaredObservation(e)) {
      waiting.push(e);
      continue;
    }
    if (e.type === "request") {
      while (waiting.length > 0 && (waiting[0] as ObservationEntry).before <= e.n) out.push(waiting.shift() as ObservationEntry);
    }
    out.push(e);
  }
  out.push(...waiting);
  return out;
}

export function isRebuild(r: RequestEntry): boolean {
  return r.tool === "start_session" && isAnswered(r);
}

/** The window an input is aimed at, from `window_id` or `target.window_id`. */
export function targetWindow(r: RequestEntry): number | undefined {
  const args = r.args as Record<string, unknown> | undefined;
  if (!args || typeof args !== "object") return undefined;
  if (typeof args.window_id === "number") return args.window_id;
  const target = args.target as Record<string, unknown> | undefined;
  if (target && typeof target === "object" && typeof target.window_id === "number") return target.window_id;
  return undefined;
}

export function faultLabel(r: RequestEntry): string | undefined {
  if (!r.fault) return r.result?.refusal_code ? `refusal ${r.result.refusal_code}` : undefined;
  const code = typeof r.fault.params?.code === "string" ? ` ${r.fault.params.code}` : "";
  return `${r.fault.kind}${code} (rule ${r.fault.rule})`;
}

/** `#3 click {"x":1}`: how a request is quoted in evidence. */
export function quote(r: RequestEntry): string {
  const args = r.args === undefined ? "" : ` ${truncate(JSON.stringify(r.args), 80)}`;
  return `#${r.n} ${r.tool ?? r.method}${args}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
