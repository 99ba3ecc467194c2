import type { RequestEntry } from "#src/schema/replay-log.js";
import { answerOutcome, type OutcomeClass } from "#src/driver/outcome.js";
import { callMayHaveRun } from "#src/driver/messages.js";
import { envelopeCode } from "#src/driver/refusals.js";
import { resultFromCliStdout } from "#src/transports/cli/wire/stdout.js";
import { rawMember } from "#src/wire/json/spans.js";

/** The judging summary of a result: error flag, refusal code, effect, emptiness, window ids. */
export function summarise(raw: string): NonNullable<RequestEntry["result"]> {
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
    const code = envelopeCode(s);
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

/**
 * The outcome class of a recorded answer (`src/driver/outcome.ts`), worked out from the bytes at hand
 * when the cassette is read: only an answer that says the driver did not act is `refused`. A result is
 * parsed only when it can be a refusal (it says `isError`), so a long look costs one scan.
 */
export function recordedAnswerClass(
  answer: { type: "cli"; tool: string | undefined; stdout: string | undefined; stderr: string; exitCode: number | null } | { type: "rpc"; response: string },
): OutcomeClass {
  if (answer.type === "rpc") {
    if (answer.response.includes('"error"') && !answer.response.includes('"result"')) return "refused";
    if (!answer.response.includes('"isError":true')) return "done";
    const result = safe(() => rawMember(answer.response, "result"));
    return result === undefined ? "done" : classOf(result);
  }
  const { exitCode, stderr } = answer;
  if (exitCode !== 0) {
    // the CLI gave up waiting, or the daemon went away mid-call: the call may have run
    if (exitCode === null || callMayHaveRun(stderr)) return "unknown";
    return answerOutcome({ exit_code: exitCode });
  }
  if (answer.tool === undefined || answer.stdout === undefined) return "done";
  // pretty JSON is a refusal only with a refusal, a status or a code in it (a look never parses here)
  if (answer.stdout.trimStart().startsWith("{") && !/"(refusal|code)"|"refused"/.test(answer.stdout)) return "done";
  const raw = safe(() => resultFromCliStdout({ stdout: answer.stdout!, tool: answer.tool! }));
  if (raw === undefined || !raw.includes('"isError":true')) return "done";
  return classOf(raw);
}

/** The outcome class of a raw tool result. */
function classOf(raw: string): OutcomeClass {
  const s = summarise(raw);
  return answerOutcome({
    ...(s.isError !== undefined ? { isError: s.isError } : {}),
    ...(s.refusal_code !== undefined ? { refusal_code: s.refusal_code } : {}),
    ...(s.effect !== undefined ? { effect: s.effect } : {}),
  });
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
