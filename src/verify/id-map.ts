import { isIdKey } from "./volatile.js";

/**
 * Ids the recording holds and the ids the live run handed out for the same things (a pid, a
 * window id, an element token), learned by walking a recorded answer beside the live one, so the
 * next recorded request can be sent with the live ids.
 */
export interface IdMap {
  learn(recorded: unknown, live: unknown): void;
  /** The request with every recorded id the map knows replaced by its live counterpart. */
  apply(request: unknown): unknown;
  entries(): Array<[unknown, unknown]>;
}

export function createIdMap(): IdMap {
  const map = new Map<string, unknown>();
  const keyOf = (v: unknown) => JSON.stringify(v);
  const learn = (a: unknown, b: unknown, key: string) => {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (const [i, item] of a.entries()) learn(item, b[i], key);
      return;
    }
    if (isPlain(a) && isPlain(b)) {
      for (const k of Object.keys(a)) if (Object.hasOwn(b, k)) learn(a[k], b[k], k);
      return;
    }
    if (isIdKey(key) && (typeof a === "number" || typeof a === "string") && typeof b === typeof a && a !== b) map.set(keyOf(a), b);
  };
  const apply = (value: unknown, key: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => apply(v, key));
    if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, apply(v, k)]));
    if (isIdKey(key) && map.has(keyOf(value))) return map.get(keyOf(value));
    return value;
  };
  return {
    learn: (recorded, live) => learn(recorded, live, ""),
    apply: (request) => apply(request, ""),
    entries: () => [...map].map(([k, v]) => [JSON.parse(k), v]),
  };
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
