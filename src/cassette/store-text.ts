import type { FrameSplice, StoredBytes } from "#src/schema/bytes.js";
import type { FrameExt } from "./frame-ref.js";
import type { FrameRef } from "#src/schema/bytes.js";
import { extractImages } from "./images.js";
import type { Redactor } from "./redact.js";
import { toStoredBytes } from "./stored-bytes.js";

export interface StoredText {
  stored: StoredBytes;
  splices: FrameSplice[];
}

/**
 * Turns raw bytes into what a cassette stores for one field: redacted (when the redactor is on),
 * images cut out to frames, base64 when the bytes are not UTF-8. Nothing else is changed.
 */
export function storeText(options: {
  bytes: Uint8Array | string;
  field: string;
  redactor?: Redactor;
  putFrame: (bytes: Buffer, ext: FrameExt) => FrameRef;
}): StoredText {
  const raw = typeof options.bytes === "string" ? options.bytes : toStoredBytes(options.bytes);
  if (typeof raw !== "string") return { stored: raw, splices: [] };
  const redacted = options.redactor ? options.redactor.text(raw) : raw;
  const { text, splices } = extractImages({ text: redacted, field: options.field, putFrame: options.putFrame });
  return { stored: text, splices };
}
