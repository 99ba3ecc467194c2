import { refusalCodesWith } from "./refusals.js";

/**
 * What a driver answer means for the state of the desktop: the one table every verdict reads
 * (the invariants, the replay's epoch, the fuzzer's oracles). docs/invariants.md, "Outcome classes".
 *
 * - `not_reached`: the call never reached the driver (no daemon, the client exited first): nothing
 *   happened, and sending it again is safe.
 * - `refused`: the driver answered that it did not act: a refusal envelope (`refusal.code`,
 *   target-style `code`), a tool it does not list or classify, a session already ended, or an error
 *   answer without an effect (`isError`, a non-zero exit with nothing on stdout).
 * - `unknown`: the call may or may not have taken effect (no answer, a death mid-call, a cut answer).
 * - `done`: the driver answered and acted; `effect` says how sure it is (`confirmed`,
 *   `unverifiable`, `suspected_noop`, …).
 */
export type OutcomeClass = "not_reached" | "refused" | "unknown" | "done";

/** Every class, in the order the docs list them. */
export const OUTCOME_CLASSES: readonly OutcomeClass[] = ["not_reached", "refused", "unknown", "done"];

/**
 * Refusal codes that mean the frame or element the harness acted on is out of date: after one, a
 * new look is needed before the next input (the `stale` rows of the refusal table).
 */
export const STALE_REFUSAL_CODES: readonly string[] = refusalCodesWith("stale");

/**
 * Refusals after which the driver never honours the refused token again (it belongs to a look
 * the driver has retired): the replay refuses the rest of that look's tokens too.
 */
export const TOKEN_RETIRING_CODES: readonly string[] = refusalCodesWith("token-retiring");

/** Whether a refusal code says the target is stale (the bundled codes, any code naming `stale`, or extra ones). */
export function isStaleCode(code: string | undefined, extra: readonly string[] = []): boolean {
  if (code === undefined) return false;
  return STALE_REFUSAL_CODES.includes(code) || extra.includes(code) || code.includes("stale");
}

/**
 * Codes the driver sends after it has acted in part: `type_text_incomplete` delivers some characters
 * before it gives up, so the call is `done` (with a partial effect), not a refusal.
 */
export const PARTIAL_EFFECT_CODES: readonly string[] = refusalCodesWith("partial-effect");

/** The judging summary of one answer (the replay log's `result`). */
export interface AnswerSummary {
  isError?: boolean | undefined;
  refusal_code?: string | undefined;
  effect?: string | undefined;
  exit_code?: number | null | undefined;
}

/**
 * The class of an answer the driver gave (no fault involved). An answer with an effect is `done`
 * whatever else it says; a refusal code, an error flag or a failed exit is `refused`; an exit by
 * signal (`null`) is `unknown`.
 */
export function answerOutcome(result: AnswerSummary | undefined): OutcomeClass {
  if (!result) return "done";
  if (result.effect !== undefined && result.effect !== "refused") return "done";
  if (result.refusal_code !== undefined) return PARTIAL_EFFECT_CODES.includes(result.refusal_code) ? "done" : "refused";
  if (result.effect === "refused" || result.isError === true) return "refused";
  if (result.exit_code === null) return "unknown";
  if (result.exit_code !== undefined && result.exit_code !== 0) return "refused";
  return "done";
}
