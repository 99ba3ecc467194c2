import { REFUSAL } from "#src/driver/refusals.js";
import type { Reply, ToolResult } from "#src/driver/port.js";
import { isTransportFailure } from "#src/driver/port.js";

/**
 * What a driver reply says about an action, read once: the ActionResult fields (0.15+), the
 * legacy pre-0.15 fields some harnesses still read, and any refusal envelope (docs/reference/cua-driver-contract.md §3.2).
 * structuredContent wins over a JSON text block when both carry a key.
 */
export interface ReplyFields {
  isError: boolean;
  effect?: string;
  verified?: boolean;
  /** `escalation.target` (0.15+) or `escalation.recommended` (legacy / refusal envelopes). */
  recommended?: string;
  hasEscalation: boolean;
  /** Refusal or error code from `refusal.code`, `code`, `reason_code` or `error_code`. */
  code?: string;
  /** The refusal's own message, or the first text block. */
  message?: string;
  /** True when the reply carries any semantic evidence at all. */
  semantic: boolean;
  deliveredChars?: number;
  requestedChars?: number;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** The first text block of a result, if any. */
export function firstText(result: ToolResult): string | undefined {
  for (const block of result.content ?? []) {
    if (block.type === "text" && typeof block.text === "string") return block.text;
  }
  return undefined;
}

/** structuredContent, else a text block that is itself a JSON object (old drivers, CLI text). */
export function structuredOf(result: ToolResult): Record<string, unknown> | undefined {
  const structured = asRecord(result.structuredContent);
  if (structured) return structured;
  const text = firstText(result)?.trim();
  if (text?.startsWith("{")) {
    try {
      return asRecord(JSON.parse(text));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The fields a harness reads from a tool result, current and legacy, and the refusal envelope if
 * there is one.
 */
export function readReplyFields(result: ToolResult): ReplyFields {
  const s = structuredOf(result) ?? {};
  const refusal = asRecord(s.refusal);
  const escalation = asRecord(s.escalation);
  const effect = str(s.effect);
  const verified = typeof s.verified === "boolean" ? s.verified : undefined;
  const code = str(refusal?.code) ?? str(s.code) ?? str(s.reason_code) ?? str(s.error_code);
  const recommended = str(escalation?.target) ?? str(escalation?.recommended);
  const refusedStatus = s.status === "refused";
  const fields: ReplyFields = {
    isError: result.isError === true,
    hasEscalation: escalation !== undefined,
    semantic: effect !== undefined || verified !== undefined || code !== undefined || refusedStatus || escalation !== undefined,
  };
  if (effect !== undefined) fields.effect = effect;
  if (verified !== undefined) fields.verified = verified;
  if (recommended !== undefined) fields.recommended = recommended;
  if (code !== undefined) fields.code = code;
  const text = firstText(result);
  const textIsJson = text?.trim().startsWith("{") === true;
  const message = str(refusal?.message) ?? str(s.message) ?? (textIsJson ? undefined : text) ?? str(s.detail);
  if (message !== undefined) fields.message = message;
  const delivery = asRecord(s.delivery);
  const delivered = s.delivered_chars ?? delivery?.delivered_count;
  if (typeof delivered === "number") fields.deliveredChars = delivered;
  if (typeof s.requested_chars === "number") fields.requestedChars = s.requested_chars;
  return fields;
}

/** The refusal code of a reply, if it is a refusal or an error with a code. */
export function refusalCode(reply: Reply): string | undefined {
  if (isTransportFailure(reply)) return undefined;
  const f = readReplyFields(reply);
  return f.isError || f.effect === "refused" ? f.code : undefined;
}

/**
 * Whether a reply says the logical session has ended: the `session_ended` refusal, or the daemon
 * guard's text form (`session 'x' has ended; … Call start_session …`).
 */
export function isSessionEnded(reply: Reply): boolean {
  if (isTransportFailure(reply) || reply.isError !== true) return false;
  if (readReplyFields(reply).code === REFUSAL.session_ended) return true;
  const text = (reply.content ?? [])
    .map((b) => (b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join("\n")
    .toLowerCase();
  return text.includes("session") && text.includes("start_session") && (text.includes("has ended") || text.includes("session ended"));
}
