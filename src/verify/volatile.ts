/**
 * What differs between two honest runs of the same flow and so says nothing about the driver:
 * ids and tokens the driver or the desktop hands out, timestamps and durations, geometry within a
 * tolerance, images, and renderings of structured fields that are compared on their own.
 */

/** Keys whose values are handed out per run (process and window ids, element tokens, snapshot ids). */
export function isIdKey(key: string): boolean {
  return ID_KEYS.has(key) || /(^|_)(id|token|pid|xid)$/.test(key);
}

const ID_KEYS = new Set(["pid", "window_id", "element_token", "snapshot_id", "token", "xid", "request_id", "session_id", "id"]);

/** Keys whose values are times, durations, or counts of polls that depend on timing. */
export function isTimeKey(key: string): boolean {
  return /(^|_)(at|ms|time|timestamp|seconds|duration|elapsed|last_used)$/.test(key) || TIMING_COUNTS.has(key);
}

const TIMING_COUNTS = new Set(["samples", "attempts", "polls", "retries"]);

/** Keys whose values are on-screen geometry, compared within the tolerance. */
export function isGeometryKey(key: string): boolean {
  return GEOMETRY_KEYS.has(key);
}

const GEOMETRY_KEYS = new Set([
  "x",
  "y",
  "w",
  "h",
  "width",
  "height",
  "left",
  "top",
  "right",
  "bottom",
  "screenshot_width",
  "screenshot_height",
  "scale_factor",
]);

/** Keys whose values are images or renderings for a reader, never compared for equality. */
export function isRenderingKey(key: string): boolean {
  return RENDERING_KEYS.has(key) || /_b64$/.test(key);
}

const RENDERING_KEYS = new Set(["tree_markdown", "_note", "screenshot_png_b64", "data", "instructions"]);

/** Keys whose values are prose for people (a change there is cosmetic). */
export function isProseKey(key: string): boolean {
  return PROSE_KEYS.has(key);
}

const PROSE_KEYS = new Set(["message", "detail", "description", "hint", "text", "escalation_detail", "reason_detail", "summary"]);

/** Timestamps written as text (RFC 3339). */
export function looksLikeTimestamp(value: unknown): boolean {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value);
}

/** Keys whose values name the driver's own version: a bump changes them by definition. */
export function isVersionKey(key: string): boolean {
  return /(^|_)version$/.test(key) || key === "driverVersion";
}
