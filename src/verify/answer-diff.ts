import type { Severity } from "#src/contract/change.js";
import { isGeometryKey, isIdKey, isProseKey, isRenderingKey, isTimeKey, isVersionKey, looksLikeTimestamp } from "./volatile.js";

/** One structural difference between a recorded answer and the candidate's, classed as `diff` classes schema changes. */
export interface AnswerDifference {
  severity: Severity;
  /** JSON path into the answer (`$.effect`, `$.windows[0].bounds.x`). */
  path: string;
  kind: "missing" | "added" | "type_changed" | "value_changed" | "length_changed" | "geometry_moved";
  recorded?: unknown;
  live?: unknown;
  message: string;
}

export interface AnswerDiffOptions {
  /** Pixels two geometry values may differ by and still count as the same. */
  tolerance: number;
}

/**
 * The differences between a recorded structured answer and the candidate's, from the harness's
 * side: a field the harness read that is gone, or whose type changed, is breaking; a value that
 * now says something else (an effect, a route, a refusal code, a window moved beyond the
 * tolerance) is behavioural; a new field is additive; prose is cosmetic. Ids, tokens, times and
 * images are not compared, only their presence and type.
 */
export function diffAnswers(recorded: unknown, live: unknown, options: AnswerDiffOptions): AnswerDifference[] {
  const out: AnswerDifference[] = [];
  walk(recorded, live, "$", "", options, out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, key: string, options: AnswerDiffOptions, out: AnswerDifference[]): void {
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (ta !== tb) {
    // Integer and number are one JSON type; null standing in for a value is a new state, not a new shape.
    if ((ta === "integer" && tb === "number") || (ta === "number" && tb === "integer")) return walk(Number(a), Number(b), path, key, options, out);
    const severity = ta === "null" || tb === "null" ? "behavioural" : "breaking";
    out.push({ severity, path, kind: "type_changed", recorded: a, live: b, message: `${path} was ${describe(a)}, now ${describe(b)}` });
    return;
  }
  if (ta === "object") return walkObject(a as Record<string, unknown>, b as Record<string, unknown>, path, options, out);
  if (ta === "array") return walkArray(a as unknown[], b as unknown[], path, key, options, out);
  if (a === b) return;
  if (isIdKey(key) || isTimeKey(key) || isRenderingKey(key) || looksLikeTimestamp(a)) return;
  if (typeof a === "number" && typeof b === "number" && isGeometryKey(key)) {
    if (Math.abs(a - b) <= options.tolerance) return;
    out.push({
      severity: "behavioural",
      path,
      kind: "geometry_moved",
      recorded: a,
      live: b,
      message: `${path} moved ${a} → ${b} (beyond ${options.tolerance})`,
    });
    return;
  }
  if (typeof a === "string" && typeof b === "string") {
    // Text that is itself JSON (verify_state's observed_json) is compared as JSON.
    const ja = jsonObject(a);
    const jb = jsonObject(b);
    if (ja !== undefined && jb !== undefined) return walk(ja, jb, path, key, options, out);
    if (isProseKey(key) || isVersionKey(key) || a.length > 80 || b.length > 80) {
      out.push({ severity: "cosmetic", path, kind: "value_changed", recorded: a, live: b, message: `${path} text changed` });
      return;
    }
  }
  out.push({
    severity: "behavioural",
    path,
    kind: "value_changed",
    recorded: a,
    live: b,
    message: `${path} was ${JSON.stringify(a)}, now ${JSON.stringify(b)}`,
  });
}

function walkObject(a: Record<string, unknown>, b: Record<string, unknown>, path: string, options: AnswerDiffOptions, out: AnswerDifference[]): void {
  for (const key of Object.keys(a)) {
    const child = `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
    if (!Object.hasOwn(b, key)) {
      const severity = isRenderingKey(key) || isProseKey(key) ? "cosmetic" : "breaking";
      out.push({ severity, path: child, kind: "missing", recorded: a[key], message: `${child} is gone` });
    } else walk(a[key], b[key], child, key, options, out);
  }
  for (const key of Object.keys(b)) {
    if (Object.hasOwn(a, key)) continue;
    const child = `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
    out.push({ severity: "additive", path: child, kind: "added", live: b[key], message: `${child} is new` });
  }
}

function walkArray(a: unknown[], b: unknown[], path: string, key: string, options: AnswerDiffOptions, out: AnswerDifference[]): void {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) walk(a[i], b[i], `${path}[${i}]`, key, options, out);
  if (a.length !== b.length) {
    out.push({
      severity: "behavioural",
      path,
      kind: "length_changed",
      recorded: a.length,
      live: b.length,
      message: `${path} held ${a.length} item(s), now ${b.length}`,
    });
  }
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function describe(value: unknown): string {
  const t = typeOf(value);
  return t === "null" ? "null" : `${t === "integer" ? "a number" : `a${/^[aeiou]/.test(t) ? "n" : ""} ${t}`}`;
}

/** A driver's output as JSON when it is a JSON object or array, else undefined. */
export function jsonObject(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
