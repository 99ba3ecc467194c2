import type { Reply } from "#src/driver/port.js";
import { isTransportFailure } from "#src/driver/port.js";
import { REFUSAL } from "#src/driver/refusals.js";
import type { Verdict } from "#src/schema/harness-step.js";
import { readReplyFields } from "./reply-fields.js";

export type { Verdict, VerdictOutcome } from "#src/schema/harness-step.js";
/** What a verdict tells the harness to do next: `done`, `verify_fresh_state` or `escalate`. */
export type VerdictDecision = Verdict["decision"];

/** What `classifyActionResult` knows about the call beside the reply. */
export interface ClassifyContext {
  /** The tool the reply answers; named in notes. */
  tool?: string;
  /** A read-only tool: a transport failure then lost nothing on screen. */
  readOnly?: boolean;
}

const NOTE = {
  confirmed: "The driver confirmed the effect. The action is done: do not repeat it.",
  unverifiable:
    "Input was delivered but the effect is not confirmed. Read fresh state and check the result before anything else; never re-send input that may have landed, even if an escalation is suggested.",
  partial:
    "Only part of the input was delivered. Read fresh state before anything else; never re-send input that may have landed, even if an escalation is suggested.",
  noEvidence:
    "The call succeeded but the reply carries no evidence of effect; transport success is not proof of effect. Read fresh state and confirm before continuing.",
  unknownMutation: "The action may have happened: the outcome is unknown. Take fresh state and decide from it; do not repeat the action.",
  unknownRead: "The read failed in transport; nothing was sent to the screen. Read again.",
  readDone: "Read succeeded.",
} as const;

function transportNote(kind: string, tool: string | undefined, readOnly: boolean | undefined): string {
  const what = kind === "timeout" ? "timed out" : kind === "daemon_died" ? "lost the driver (daemon died)" : "lost its transport";
  const subject = tool ? `${tool} ${what}` : `The call ${what}`;
  return `${subject}. ${readOnly ? NOTE.unknownRead : NOTE.unknownMutation}`;
}

/** Fail-closed envelopes other harness layers put in a result (hermes: `timeout_outcome_unknown`, `next_step: "fresh_state"`). */
const UNKNOWN_OUTCOME_CODES: ReadonlySet<string> = new Set(["timeout_outcome_unknown", "transport_outcome_unknown", "remote_transport_outcome_unknown"]);

function isUnknownOutcomeEnvelope(code: string | undefined, structured: Record<string, unknown> | undefined): boolean {
  return (code !== undefined && UNKNOWN_OUTCOME_CODES.has(code)) || structured?.next_step === "fresh_state";
}

function withRecommended(verdict: Verdict, recommended: string | undefined): Verdict {
  return recommended === undefined ? verdict : { ...verdict, recommended };
}

/**
 * Turns a driver reply into the decision a model should take next. Escalation is advisory: it
 * never overrides a confirmed effect, and never licenses repeating input that may have landed.
 */
export function classifyActionResult(reply: Reply, context: ClassifyContext = {}): Verdict {
  if (isTransportFailure(reply)) {
    return { decision: "verify_fresh_state", outcome: "unknown", note: transportNote(reply.kind, context.tool ?? reply.tool, context.readOnly) };
  }
  const f = readReplyFields(reply);
  if (f.effect === undefined && f.verified === undefined && isUnknownOutcomeEnvelope(f.code, reply.structuredContent)) {
    return { decision: "verify_fresh_state", outcome: "unknown", note: transportNote("transport_error", context.tool, context.readOnly) };
  }
  if (f.effect === "confirmed" || f.verified === true) {
    return { decision: "done", outcome: "confirmed", note: NOTE.confirmed };
  }
  if (f.effect === "unverifiable" || f.effect === "partial") {
    return withRecommended(
      { decision: "verify_fresh_state", outcome: "unconfirmed", note: f.effect === "partial" ? NOTE.partial : NOTE.unverifiable },
      f.recommended,
    );
  }
  if (f.code === REFUSAL.type_text_incomplete && f.deliveredChars !== undefined && f.deliveredChars <= 0 && (f.requestedChars ?? 1) > 0) {
    return {
      decision: "escalate",
      outcome: "no_effect",
      recommended: "set_value",
      note: "0 characters landed: this field drops synthetic keystrokes. Use set_value on the field's element instead; read fresh state first if the element may be stale.",
    };
  }
  if (f.effect === "suspected_noop") {
    return withRecommended(
      {
        decision: "escalate",
        outcome: "no_effect",
        note: `The input most likely did not land.${f.recommended ? ` Climb one rung: ${f.recommended}.` : ""} Do not re-send the same input unchanged.`,
      },
      f.recommended,
    );
  }
  const refused = f.effect === "refused" || f.code !== undefined || reply.isError === true;
  if (refused) {
    return withRecommended({ decision: "escalate", outcome: "refused", note: refusalNote(f.code, f.message, f.recommended) }, f.recommended);
  }
  if (context.readOnly && !f.semantic) return { decision: "done", outcome: "confirmed", note: NOTE.readDone };
  return { decision: "verify_fresh_state", outcome: "unconfirmed", note: NOTE.noEvidence };
}

function refusalNote(code: string | undefined, message: string | undefined, recommended: string | undefined): string {
  if (code === REFUSAL.stale_element_token) {
    return "The element token is stale: the window changed since it was read. Read the window again and choose the target from the fresh list; do not aim at a look-alike.";
  }
  if (code === REFUSAL.session_ended) return "The driver session had ended; nothing was done. Revive it with start_session, read fresh state, then act.";
  const why = code ? `The driver refused (${code})` : "The driver reported an error";
  const said = message ? `: ${message.length > 160 ? `${message.slice(0, 159)}…` : message}` : "";
  const next = recommended ? ` Recommended: ${recommended}.` : " Change the approach; do not re-send the same call unchanged.";
  const sentence = `${why}${said}`;
  return `${/[.!?…]$/.test(sentence) ? sentence : `${sentence}.`}${next}`;
}

const SEVERITY: Record<VerdictDecision, number> = { done: 0, verify_fresh_state: 1, escalate: 2 };

/** A batch takes its most severe verdict (escalate > verify_fresh_state > done); the first wins ties. */
export function mostSevereVerdict(verdicts: readonly Verdict[]): Verdict | undefined {
  let worst: Verdict | undefined;
  for (const v of verdicts) if (!worst || SEVERITY[v.decision] > SEVERITY[worst.decision]) worst = v;
  return worst;
}
