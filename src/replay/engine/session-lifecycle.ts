import { isSessionEndedGuardText } from "#src/driver/messages.js";
import { REFUSAL } from "#src/driver/refusals.js";
import { toolsWith } from "#src/driver/catalogue.js";
import type { RecordedExchange } from "./recorded-exchange.js";
import { recordedOutcome } from "./tool-result.js";

/**
 * Session-lifecycle and session-inspection tools: they change (or show) which session a call runs
 * in, never what is on screen, so a recording can answer them at another point in time
 * (docs/decisions/0014).
 */
export const LIFECYCLE_TOOLS: ReadonlySet<string> = new Set(toolsWith("session-state"));

export const isLifecycleTool = (tool: string | undefined): boolean => tool !== undefined && LIFECYCLE_TOOLS.has(tool);

/**
 * The explicit session a call names (its `session` argument), or undefined for the implicit one:
 * per-call CLI calls get a fresh disposable session each time, so only a label persists.
 */
export function sessionLabel(args: unknown): string | undefined {
  const s = args && typeof args === "object" ? (args as { session?: unknown }).session : undefined;
  return typeof s === "string" && s !== "" && s !== "default" ? s : undefined;
}

/** The daemon's guard for a call on an ended session, as `cua-driver call` prints it (stderr, exit 1). */
export { sessionEndedGuardText } from "#src/driver/messages.js";

/**
 * The recorded answer for a lifecycle call out of the recorded order: the same key in the current
 * epoch, else the latest earlier epoch, else the earliest later one.
 */
export function lifecycleAnswer(group: readonly RecordedExchange[], epoch: number): RecordedExchange | undefined {
  let best: RecordedExchange | undefined;
  const rank = (x: RecordedExchange) => (x.epoch === epoch ? 0 : x.epoch < epoch ? 1 + (epoch - x.epoch) / 1e6 : 2 + x.epoch / 1e6);
  for (const x of group) {
    if (x.kind === "other") continue;
    if (!best || rank(x) < rank(best)) best = x;
  }
  return best;
}

/** Whether a recorded answer is itself the driver's `session_ended` refusal (then it is served as recorded). */
export function recordsSessionEnded(exchange: RecordedExchange): boolean {
  const outcome = recordedOutcome(exchange);
  if (outcome.type === "result") return outcome.raw.includes(JSON.stringify(REFUSAL.session_ended));
  if (outcome.type === "cli_failure") return isSessionEndedGuardText(outcome.stderr);
  return false;
}
