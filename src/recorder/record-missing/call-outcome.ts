import { envelopeCode, isRefusalEnvelope } from "#src/driver/refusals.js";

/** What a `cua-driver call` answer says happened: accepted, or refused with a code; and the effect it claims. */
export interface CallOutcome {
  accepted: boolean;
  /** Refusal code, or `exit N` for a failed invocation. */
  code?: string;
  effect?: string;
}

export function callOutcome(options: { stdout: string; exitCode: number | null }): CallOutcome {
  if (options.exitCode !== 0) return { accepted: false, code: `exit ${String(options.exitCode)}` };
  let structured: Record<string, unknown> | undefined;
  try {
    const v: unknown = JSON.parse(options.stdout);
    if (v && typeof v === "object" && !Array.isArray(v)) structured = v as Record<string, unknown>;
  } catch {
    // text output: nothing to tell a refusal by (both sides are compared the same way)
    return { accepted: true };
  }
  if (!structured) return { accepted: true };
  const code = envelopeCode(structured);
  const effect = typeof structured.effect === "string" ? structured.effect : undefined;
  return { accepted: !isRefusalEnvelope(structured), ...(code ? { code } : {}), ...(effect ? { effect } : {}) };
}

export const describeOutcome = (o: CallOutcome): string =>
  o.accepted ? `accepted${o.effect ? ` (effect ${o.effect})` : ""}` : `refused ${o.code ?? ""}`.trim();

/** Whether the live driver treats a mutation otherwise than the recording says it did (accepted vs refused, or another refusal). */
export const outcomesDiffer = (a: CallOutcome, b: CallOutcome): boolean => a.accepted !== b.accepted || (!a.accepted && a.code !== b.code);

/** The same for a JSON-RPC answer line of `tools/call`: a JSON-RPC error, an `isError` result, or the result's claims. */
export function mcpOutcome(line: string): CallOutcome {
  let message: { error?: { code?: unknown }; result?: { isError?: unknown; structuredContent?: unknown } };
  try {
    message = JSON.parse(line) as typeof message;
  } catch {
    return { accepted: false, code: "unreadable" };
  }
  if (message.error) return { accepted: false, code: `rpc ${String(message.error.code)}` };
  const s = message.result?.structuredContent;
  const structured = s && typeof s === "object" && !Array.isArray(s) ? (s as Record<string, unknown>) : undefined;
  const code = envelopeCode(structured);
  const effect = typeof structured?.effect === "string" ? structured.effect : undefined;
  const refused = message.result?.isError === true || (structured !== undefined && isRefusalEnvelope(structured));
  return { accepted: !refused, ...(code ? { code } : {}), ...(effect ? { effect } : {}) };
}
