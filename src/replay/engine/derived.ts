import type { RecordedExchange } from "./exchanges.js";
import { matchKey, type KeyOptions } from "./match-key.js";

/**
 * Exchanges by match key, with what matching derives from them kept beside (docs/decisions/0200):
 * built on first use and shared by every replay over the same preparation, so that nothing a
 * call needs from the recording is worked out per call, and no state lives in a module.
 */
export type KeyIndex = ReadonlyMap<string, readonly RecordedExchange[]> & { readonly derived?: Map<string, unknown> };

/** Exchanges by match key, in recorded order within each key, with room for what is derived from them. */
export function buildKeyIndex(exchanges: readonly RecordedExchange[], keys: KeyOptions): Map<string, RecordedExchange[]> & { derived: Map<string, unknown> } {
  const index = new Map<string, RecordedExchange[]>();
  for (const x of exchanges) {
    const k = matchKey(x.request, keys);
    const list = index.get(k);
    if (list) list.push(x);
    else index.set(k, [x]);
  }
  return Object.assign(index, { derived: new Map<string, unknown>() });
}

/** What `build` gives for this index, built once when the index has room to keep it. */
export function derivedFrom<T>(index: KeyIndex | undefined, name: string, build: () => T): T {
  const kept = index?.derived;
  if (!kept) return build();
  if (kept.has(name)) return kept.get(name) as T;
  const value = build();
  kept.set(name, value);
  return value;
}
