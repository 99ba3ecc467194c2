/** The signature grid and its stored form: no image library here, so reading a stored signature loads none. */

export const SIGNATURE = { width: 32, height: 18 } as const;

/**
 * Names how a signature is computed (what `signatureOnce` does), for signatures stored with the
 * frames (`frames/<sha256>.sig.json`): change it whenever the computation changes, so a stored one
 * made the old way is ignored rather than trusted.
 */
export const SIGNATURE_METHOD = "libvips-resize-fill-32x18-bt601-grey/1";

/** A frame's 32×18 grayscale signature as RGBA (what pixelmatch compares), with the frame's own size. */
export interface Signature {
  rgba: Uint8Array;
  width: number;
  height: number;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's IHDR without a decode; undefined for other formats. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 24 || PNG_MAGIC.some((b, i) => bytes[i] !== b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** A signature from the grey grid it was stored as (`cassette/frame-signature`); undefined when the grid is not 32×18. */
export function signatureFromGrey(stored: { width: number; height: number; columns: number; rows: number; grey: Uint8Array }): Signature | undefined {
  if (stored.columns !== SIGNATURE.width || stored.rows !== SIGNATURE.height || stored.grey.length !== stored.columns * stored.rows) return undefined;
  const rgba = new Uint8Array(stored.grey.length * 4);
  for (let i = 0; i < stored.grey.length; i++) {
    const v = stored.grey[i]!;
    rgba[i * 4] = v;
    rgba[i * 4 + 1] = v;
    rgba[i * 4 + 2] = v;
    rgba[i * 4 + 3] = 255;
  }
  return { rgba, width: stored.width, height: stored.height };
}

/** The grey grid of a signature, row by row (what is stored). */
export function greyOf(signature: Signature): Uint8Array {
  const grey = new Uint8Array(signature.rgba.length / 4);
  for (let i = 0; i < grey.length; i++) grey[i] = signature.rgba[i * 4]!;
  return grey;
}
