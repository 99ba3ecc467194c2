import type { StoredBytes } from "#src/schema/bytes.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 text when the bytes are valid UTF-8 and round-trip exactly, else base64 with a marker. */
export function toStoredBytes(bytes: Uint8Array): StoredBytes {
  try {
    const text = decoder.decode(bytes);
    // A leading BOM is dropped by TextDecoder; keep such bytes as base64 so nothing is lost.
    if (Buffer.byteLength(text, "utf8") === bytes.length) return text;
  } catch {
    // not UTF-8: fall through
  }
  return { encoding: "base64", data: Buffer.from(bytes).toString("base64") };
}

export function fromStoredBytes(stored: StoredBytes): Buffer {
  return typeof stored === "string" ? Buffer.from(stored, "utf8") : Buffer.from(stored.data, "base64");
}

export function isTextStored(stored: StoredBytes): stored is string {
  return typeof stored === "string";
}
