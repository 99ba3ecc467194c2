import { UserError } from "#src/errors.js";
import type { FrameRef, StoredBytes } from "#src/schema/bytes.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { Cassette } from "./cassette.js";
import { loadFrame } from "./frame-store.js";
import { restoreImages } from "./images.js";
import { fromStoredBytes } from "./stored-bytes.js";

const frameCache = new WeakMap<Cassette, Map<string, Buffer>>();

/** The bytes of a frame of this cassette, checked against its hash (cached per cassette). */
export function readFrame(cassette: Cassette, ref: FrameRef | string): Buffer {
  let cache = frameCache.get(cassette);
  if (!cache) frameCache.set(cassette, (cache = new Map()));
  const hit = cache.get(ref);
  if (hit) return hit;
  const bytes = loadFrame({ dir: cassette.dir, ref, where: cassette.file });
  cache.set(ref, bytes);
  return bytes;
}

/** The stored value of a dotted field (`stdout`, `line`, `response.body`…), or undefined. */
export function storedField(event: CassetteEvent, field: string): StoredBytes | undefined {
  let value: unknown = event;
  for (const key of field.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && (value as { encoding?: unknown }).encoding === "base64") {
    return value as StoredBytes;
  }
  return undefined;
}

/**
 * The exact original bytes of a field: frames cut out at record time are put back and base64
 * storage is decoded. A field that is absent restores as empty bytes.
 */
export function restoreBytes(cassette: Cassette, event: CassetteEvent, field: string): Buffer {
  const stored = storedField(event, field);
  if (stored === undefined) return Buffer.alloc(0);
  const splices = ("frames" in event && event.frames ? event.frames : []).filter((s) => s.field === field);
  if (splices.length === 0) return fromStoredBytes(stored);
  if (typeof stored !== "string") {
    throw badSplice(cassette, event, field, "frames are spliced into a base64-stored field");
  }
  const text = restoreImages({
    text: stored,
    splices,
    frameBase64: (ref) => readFrame(cassette, ref).toString("base64"),
    onBadOffset: (splice, index) => {
      throw badSplice(cassette, event, field, `splice ${index} offset ${splice.at} is outside the text`);
    },
  });
  return Buffer.from(text, "utf8");
}

/** The original text of a field (UTF-8 decoded, frames put back). */
export function restoreText(cassette: Cassette, event: CassetteEvent, field: string): string {
  return restoreBytes(cassette, event, field).toString("utf8");
}

function badSplice(cassette: Cassette, event: CassetteEvent, field: string, problem: string): UserError {
  const index = cassette.events.indexOf(event);
  const line = index >= 0 ? cassette.lines[index] : undefined;
  return new UserError(`cannot restore ${field}: ${problem}`, {
    code: "BAD_CASSETTE",
    file: cassette.file,
    ...(line !== undefined ? { line } : {}),
    field: "frames",
    fix: "The event was edited by hand; re-record the cassette.",
  });
}
