/**
 * Compact copies of parsed JSON kept for a long time (one per recorded call of a large cassette):
 * short strings and object keys shared with equal ones, objects rebuilt key by key so that equal
 * shapes share one hidden class. The value is the same JSON value.
 */
export interface Compactor {
  /** The string, shared with an equal one seen before (short strings only). */
  intern(value: string): string;
  compactValue(value: unknown): unknown;
}

/** A compactor with its own table of shared strings: one per cassette read, dropped with it. */
export function createCompactor(): Compactor {
  const interned = new Map<string, string>();
  const intern = (value: string): string => {
    if (value.length > 256) return value;
    const hit = interned.get(value);
    if (hit !== undefined) return hit;
    if (interned.size < 100_000) interned.set(value, value);
    return value;
  };
  const compactValue = (value: unknown): unknown => {
    if (typeof value === "string") return intern(value);
    if (Array.isArray(value)) return value.map(compactValue);
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const item = compactValue((value as Record<string, unknown>)[key]);
        // a recorded "__proto__" key is an own member, as JSON.parse made it, not the prototype
        if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
        else out[intern(key)] = item;
      }
      return out;
    }
    return value;
  };
  return { intern, compactValue };
}
