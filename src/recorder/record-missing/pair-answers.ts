import { ELEMENT_TOKEN } from "#src/driver/element-token.js";
import type { IdKind } from "./id-json.js";

/** One identifier seen in a recorded answer and, at the same place, in the live answer to the same request. */
export interface IdPair {
  kind: IdKind;
  recorded: string;
  live: string;
}

export interface Pairing {
  pairs: IdPair[];
  /** Where the two answers do not describe the same desktop (a window only one has, an element that differs). */
  differences: string[];
}

const ID_KEYS: Readonly<Record<string, IdKind>> = { pid: "pid", window_id: "window", snapshot_id: "snapshot" };
const TOKEN = ELEMENT_TOKEN;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * Pairs the identifiers of a recorded answer with those of the live answer to the same request
 * (both JSON: CLI stdout or a structured result). Objects are walked key by key; windows are paired
 * by app and title (by position only when every position agrees), elements by their index.
 */
export function pairAnswers(recorded: string, live: string): Pairing {
  const out: Pairing = { pairs: [], differences: [] };
  let r: Json;
  let l: Json;
  try {
    r = JSON.parse(recorded) as Json;
    l = JSON.parse(live) as Json;
  } catch {
    return out;
  }
  walk(r, l, undefined, out);
  return out;
}

function walk(r: Json, l: Json, key: string | undefined, out: Pairing): void {
  const kind = key !== undefined ? ID_KEYS[key] : undefined;
  if (kind && (typeof r === "number" || typeof r === "string") && typeof r === typeof l) {
    out.pairs.push({ kind, recorded: String(r), live: String(l) });
    return;
  }
  if (key === "element_token" && typeof r === "string" && typeof l === "string") {
    const a = TOKEN.exec(r);
    const b = TOKEN.exec(l);
    if (a && b) out.pairs.push({ kind: "snapshot", recorded: a[1]!, live: b[1]! });
    return;
  }
  if (Array.isArray(r) && Array.isArray(l)) {
    if (isWindows(r) && isWindows(l)) return pairWindows(r as Window[], l as Window[], out);
    if (key === "elements") return pairElements(r, l, out);
    if (r.length === l.length) for (const [i, x] of r.entries()) walk(x, l[i]!, undefined, out);
    return;
  }
  if (isObject(r) && isObject(l)) {
    for (const k of Object.keys(r)) if (k in l) walk(r[k]!, l[k]!, k, out);
  }
}

type Window = { [k: string]: Json };

const isObject = (v: Json): v is { [k: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);
const isWindows = (list: Json[]): boolean => list.length > 0 && list.every((w) => isObject(w) && typeof w.window_id === "number");
const describeWindow = (w: Window) => `${String(w.app_name ?? "?")} "${String(w.title ?? "")}"`;

function pairWindows(r: Window[], l: Window[], out: Pairing): void {
  const same = (a: Window, b: Window) => a.app_name === b.app_name && a.title === b.title;
  if (r.length === l.length && r.every((w, i) => same(w, l[i]!))) {
    for (const [i, w] of r.entries()) walk(w, l[i]!, undefined, out);
    return;
  }
  const claimed = new Set<number>();
  for (const w of r) {
    const matches = l.map((x, i) => [x, i] as const).filter(([x]) => same(w, x));
    if (matches.length === 1 && !claimed.has(matches[0]![1])) {
      claimed.add(matches[0]![1]);
      walk(w, matches[0]![0], undefined, out);
    } else out.differences.push(`recorded window ${describeWindow(w)} has ${matches.length === 0 ? "no" : "no single"} live counterpart`);
  }
  l.forEach((x, i) => {
    if (!claimed.has(i) && !r.some((w) => same(w, x))) out.differences.push(`live window ${describeWindow(x)} is not in the recorded answer`);
  });
}

function pairElements(r: Json[], l: Json[], out: Pairing): void {
  const byIndex = new Map<number, { [k: string]: Json }>();
  for (const e of l) if (isObject(e) && typeof e.element_index === "number") byIndex.set(e.element_index, e);
  let differing = 0;
  let first: string | undefined;
  for (const e of r) {
    if (!isObject(e) || typeof e.element_index !== "number") continue;
    const other = byIndex.get(e.element_index);
    if (!other) {
      differing++;
      first ??= `element [${e.element_index}] is missing live`;
      continue;
    }
    if (other.role !== e.role || (other.label ?? null) !== (e.label ?? null)) {
      differing++;
      first ??= `element [${e.element_index}] is ${String(e.role)} "${String(e.label ?? "")}" recorded, ${String(other.role)} "${String(other.label ?? "")}" live`;
    }
    walk(e.element_token ?? null, other.element_token ?? null, "element_token", out);
  }
  if (differing > 0)
    out.differences.push(`${differing} element(s) differ between the recorded and the live window (${first}): tokens by index may name other elements`);
}
