import { readFrameSignature, storedFrameRefs, writeFrameSignature } from "#src/cassette/frame-signature.js";
import { loadFrame } from "#src/cassette/frame-store.js";
import type { FrameRef } from "#src/schema/bytes.js";
import { eachLimited } from "#src/util/each-limited.js";
import { greyOf, pngSize, SIGNATURE, SIGNATURE_METHOD, signatureFromGrey, type Signature } from "./signature-grid.js";

/**
 * A frame's stored signature (`frames/<sha256>.sig.json`), when one was made the way `signature`
 * makes it, for these bytes' size; undefined otherwise (the caller computes it).
 */
export function storedSignature(options: { dir: string; ref: string; bytes?: Uint8Array }): Signature | undefined {
  const stored = readFrameSignature({ dir: options.dir, ref: options.ref, method: SIGNATURE_METHOD });
  if (!stored) return undefined;
  const size = options.bytes ? pngSize(options.bytes) : undefined;
  if (size && (size.width !== stored.width || size.height !== stored.height)) return undefined;
  return signatureFromGrey(stored);
}

// sharp is loaded when a frame is to be signed, not by a command that only might sign (replay --help).
let decodeModule: Promise<typeof import("./decode.js")> | undefined;
const decoder = () => (decodeModule ??= import("./decode.js"));

export interface SignFramesResult {
  /** Frames in the cassette's frames/ folder. */
  frames: number;
  /** Signatures written now. */
  signed: number;
  /** Frames that already had a signature made the current way. */
  kept: number;
  /** Frames that could not be read or decoded (missing, altered, not an image), with why: left unsigned. */
  unsigned: { ref: FrameRef; why: string }[];
}

/**
 * Stores the screen signature of every frame of a cassette that has none made the current way, so
 * a report compares frames without decoding them. Two frames at a time (sharp's own threads do the
 * decoding); `onProgress` after each frame.
 */
export async function signFrames(options: { dir: string; force?: boolean; onProgress?: (done: number, total: number) => void }): Promise<SignFramesResult> {
  const refs = storedFrameRefs(options.dir);
  const result: SignFramesResult = { frames: refs.length, signed: 0, kept: 0, unsigned: [] };
  let done = 0;
  await eachLimited(refs, 2, async (ref) => {
    try {
      if (!options.force && readFrameSignature({ dir: options.dir, ref, method: SIGNATURE_METHOD })) {
        result.kept++;
      } else {
        const bytes = loadFrame({ dir: options.dir, ref });
        const sig = await (await decoder()).signature(bytes, ref);
        writeFrameSignature({
          dir: options.dir,
          ref,
          method: SIGNATURE_METHOD,
          signature: { width: sig.width, height: sig.height, columns: SIGNATURE.width, rows: SIGNATURE.height, grey: greyOf(sig) },
        });
        result.signed++;
      }
    } catch (error) {
      result.unsigned.push({ ref, why: error instanceof Error ? error.message : String(error) });
    }
    options.onProgress?.(++done, refs.length);
  });
  result.unsigned.sort((a, b) => a.ref.localeCompare(b.ref));
  return result;
}
