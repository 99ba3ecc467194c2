import { fromStoredBytes, storedField } from "#src/cassette/index.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { StoredBytes } from "#src/schema/bytes.js";

/** A stored field of a cassette event as text ("" when the event has no such field). */
export function eventText(event: CassetteEvent, field: string): string {
  const stored = storedField(event, field);
  return stored === undefined ? "" : storedString(stored);
}

/** Stored bytes as text: a string as it is, base64 decoded as UTF-8. */
export function storedString(stored: StoredBytes): string {
  return typeof stored === "string" ? stored : fromStoredBytes(stored).toString("utf8");
}

/** JSON.parse that answers undefined for text that is not JSON (recorded output need not be). */
export function jsonOrUndefined(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
