import sharp from "sharp";
import { UserError } from "#src/errors.js";
import { areaAverage, halveRgba, type Pixels } from "./resample.js";
import { pngSize, SIGNATURE, type Signature } from "./signature-grid.js";

export { SIGNATURE, SIGNATURE_METHOD, type Signature } from "./signature-grid.js";

/** sharp on bytes we were handed; a frame sharp cannot read is bad input, named by role. */
export function decodeFailure(role: string, error: unknown): UserError {
  const why = error instanceof Error ? error.message : String(error);
  return new UserError(`The ${role} frame could not be decoded as PNG or JPEG (${why})`, {
    code: "BAD_FRAME",
    field: role,
    fix: "Pass the exact PNG or JPEG bytes of a screenshot.",
    cause: error,
  });
}

/** A screenshot decoded once: its own pixels in their own channels (1–4), and the bytes they came from. */
export interface DecodedFrame extends Pixels {
  bytes: Uint8Array;
}

/**
 * What was computed from a frame, by the identity of its bytes, so a caller comparing a run of
 * screenshots (the report: each frame is in two pairs) computes each once. Dropped with the caller's scope.
 */
export type FrameCache = Map<Uint8Array, { pixels?: Promise<DecodedFrame>; signature?: Promise<Signature> }>;

export const frameCache = (): FrameCache => new Map();

function entryOf(cache: FrameCache, bytes: Uint8Array): { pixels?: Promise<DecodedFrame>; signature?: Promise<Signature> } {
  let entry = cache.get(bytes);
  if (!entry) cache.set(bytes, (entry = {}));
  return entry;
}

async function decodeOnce(bytes: Uint8Array, role: string): Promise<DecodedFrame> {
  try {
    const { data, info } = await sharp(bytes, { failOn: "error" }).raw().toBuffer({ resolveWithObject: true });
    return { bytes, data, width: info.width, height: info.height, channels: info.channels };
  } catch (error) {
    throw decodeFailure(role, error);
  }
}

/** The frame's pixels, from `cache` when it already holds them. */
export function decodeFrame(bytes: Uint8Array, role: string, cache?: FrameCache): Promise<DecodedFrame> {
  if (!cache) return decodeOnce(bytes, role);
  const entry = entryOf(cache, bytes);
  return (entry.pixels ??= decodeOnce(bytes, role));
}

// The resized cells (any channel count) as grey RGBA.
function greyCells(data: Uint8Array, channels: number): Uint8Array {
  const cells = SIGNATURE.width * SIGNATURE.height;
  const rgba = new Uint8Array(cells * 4);
  for (let i = 0; i < cells; i++) {
    const p = i * channels;
    const v = channels >= 3 ? Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!) : data[p]!;
    rgba.set([v, v, v, 255], i * 4);
  }
  return rgba;
}

/**
 * The signature in one libvips pipeline from the encoded bytes (decoding and shrinking stream
 * together on sharp's threads, about the cost of a plain decode). The frame is resized in colour
 * and turned grey afterwards: libvips' greyscale conversion at full resolution costs more than the
 * decode itself.
 */
async function signatureOnce(bytes: Uint8Array, role: string): Promise<Signature> {
  try {
    const image = sharp(bytes, { failOn: "error" });
    const [size, small] = await Promise.all([
      pngSize(bytes) ?? image.clone().metadata(),
      image.resize(SIGNATURE.width, SIGNATURE.height, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true }),
    ]);
    return { rgba: greyCells(small.data, small.info.channels), width: size.width ?? 0, height: size.height ?? 0 };
  } catch (error) {
    throw decodeFailure(role, error);
  }
}

/**
 * The same libvips resize on pixels already decoded: for a PNG the very same numbers as from its
 * bytes (the loader hands libvips the same pixels), without inflating the file a second time. Not
 * for JPEG, which libvips shrinks while decoding.
 */
async function signatureOfPixels(frame: DecodedFrame, role: string): Promise<Signature> {
  try {
    const raw = { width: frame.width, height: frame.height, channels: frame.channels as 1 | 2 | 3 | 4 };
    const small = await sharp(frame.data, { raw }).resize(SIGNATURE.width, SIGNATURE.height, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
    return { rgba: greyCells(small.data, small.info.channels), width: frame.width, height: frame.height };
  } catch (error) {
    throw decodeFailure(role, error);
  }
}

/** The frame's signature, from `cache` when it already holds it (a cached PNG's from its decoded pixels). */
export function signature(bytes: Uint8Array, role: string, cache?: FrameCache): Promise<Signature> {
  if (!cache) return signatureOnce(bytes, role);
  const entry = entryOf(cache, bytes);
  return (entry.signature ??= pngSize(bytes) ? decodeFrame(bytes, role, cache).then((frame) => signatureOfPixels(frame, role)) : signatureOnce(bytes, role));
}

const reductions = new WeakMap<DecodedFrame, Map<number, Pixels>>();

/**
 * The frame shrunk by a whole factor k as RGBA, ⌊width/k⌋ × ⌊height/k⌋, each pixel an area mean
 * (k = 2: 2×2 blocks, an odd last row or column dropped), kept per frame and factor.
 */
export function reducedBy(frame: DecodedFrame, k: number): Pixels {
  if (k === 1 && frame.channels === 4) return frame;
  let known = reductions.get(frame);
  if (!known) reductions.set(frame, (known = new Map()));
  let pixels = known.get(k);
  if (!pixels && k === 2) known.set(k, (pixels = halveRgba(frame)));
  if (!pixels) {
    const width = Math.max(1, Math.floor(frame.width / k));
    const height = Math.max(1, Math.floor(frame.height / k));
    known.set(k, (pixels = { data: areaAverage({ src: frame, width, height }), width, height, channels: 4 }));
  }
  return pixels;
}

const scaled = new WeakMap<Pixels, Map<string, Uint8Array>>();

/**
 * The frame as RGBA at `width`×`height`, from its reduction by `k`: those pixels when that is
 * their size (the usual case), else their area average to the size (a frame of another size).
 */
export function rgbaAt(frame: DecodedFrame, k: number, width: number, height: number): Uint8Array {
  const src = reducedBy(frame, k);
  if (src.width === width && src.height === height) return src.data;
  let sizes = scaled.get(src);
  if (!sizes) scaled.set(src, (sizes = new Map()));
  const key = `${width}x${height}`;
  let rgba = sizes.get(key);
  if (!rgba) sizes.set(key, (rgba = areaAverage({ src, width, height })));
  return rgba;
}
