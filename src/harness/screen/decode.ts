import sharp from "sharp";
import { UserError } from "../../errors.js";

export const SIGNATURE = { width: 32, height: 18 } as const;

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

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's IHDR without a decode; undefined for other formats. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 24 || PNG_MAGIC.some((b, i) => bytes[i] !== b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * A 32×18 grayscale signature as RGBA (what pixelmatch compares), with the frame's own size.
 * The frame is resized in colour and turned grey afterwards: libvips' greyscale conversion at
 * full resolution costs more than the decode itself.
 */
export async function signature(bytes: Uint8Array, role: string): Promise<{ rgba: Uint8Array; width: number; height: number }> {
  try {
    const image = sharp(bytes, { failOn: "error" });
    const [size, small] = await Promise.all([
      pngSize(bytes) ?? image.clone().metadata(),
      image.resize(SIGNATURE.width, SIGNATURE.height, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true }),
    ]);
    const { data, info } = small;
    const cells = SIGNATURE.width * SIGNATURE.height;
    const rgba = new Uint8Array(cells * 4);
    for (let i = 0; i < cells; i++) {
      const p = i * info.channels;
      const v = info.channels >= 3 ? Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!) : data[p]!;
      rgba.set([v, v, v, 255], i * 4);
    }
    return { rgba, width: size.width ?? 0, height: size.height ?? 0 };
  } catch (error) {
    throw decodeFailure(role, error);
  }
}

/** Full-resolution RGBA, resized to `size` when given. */
export async function rgbaOf(bytes: Uint8Array, role: string, size?: { width: number; height: number }): Promise<{ data: Buffer; width: number; height: number }> {
  try {
    let image = sharp(bytes, { failOn: "error" }).ensureAlpha();
    if (size) image = image.resize(size.width, size.height, { fit: "fill" });
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    throw decodeFailure(role, error);
  }
}
