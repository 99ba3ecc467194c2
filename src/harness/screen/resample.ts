/** Decoded pixels in their own channels: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
export interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

// Channel offsets of green, blue and alpha (-1: opaque) for a pixel layout.
function layout(c: number): { g: number; b: number; a: number } {
  return { g: c >= 3 ? 1 : 0, b: c >= 3 ? 2 : 0, a: c === 4 ? 3 : c === 2 ? 1 : -1 };
}

// The source span [start, end) each output column or row averages: at least one pixel, so it also enlarges.
function bins(from: number, to: number): { start: Int32Array; end: Int32Array } {
  const start = new Int32Array(to);
  const end = new Int32Array(to);
  for (let i = 0; i < to; i++) {
    start[i] = Math.min(from - 1, Math.floor((i * from) / to));
    end[i] = Math.min(from, Math.max(start[i]! + 1, Math.floor(((i + 1) * from) / to)));
  }
  return { start, end };
}

/**
 * The pixels as RGBA at any size, each output pixel the mean of the source pixels it covers:
 * plain JS over the buffer, which costs several times less than a libvips resize of a raw buffer.
 * Grey (1–2 channels) is spread to RGB; pixels without alpha get 255.
 */
export function areaAverage(options: { src: Pixels; width: number; height: number }): Uint8Array {
  const { src, width, height } = options;
  const { data, channels: c } = src;
  const { g, b, a } = layout(c);
  const xs = bins(src.width, width);
  const ys = bins(src.height, height);
  // each source column's output column when shrinking (every source pixel in exactly one span)
  const shrinking = width <= src.width;
  const column = new Int32Array(src.width);
  if (shrinking) for (let ox = 0; ox < width; ox++) column.fill(ox * 4, xs.start[ox]!, xs.end[ox]!);
  const out = new Uint8Array(width * height * 4);
  const acc = new Float64Array(width * 4);
  for (let oy = 0; oy < height; oy++) {
    acc.fill(0);
    const y0 = ys.start[oy]!;
    const y1 = ys.end[oy]!;
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * src.width * c;
      if (shrinking) {
        for (let sx = 0, p = row; sx < src.width; sx++, p += c) {
          const q = column[sx]!;
          acc[q] = acc[q]! + data[p]!;
          acc[q + 1] = acc[q + 1]! + data[p + g]!;
          acc[q + 2] = acc[q + 2]! + data[p + b]!;
          acc[q + 3] = acc[q + 3]! + (a < 0 ? 255 : data[p + a]!);
        }
        continue;
      }
      for (let ox = 0; ox < width; ox++) {
        const x1 = xs.end[ox]!;
        const q = ox * 4;
        for (let sx = xs.start[ox]!, p = row + sx * c; sx < x1; sx++, p += c) {
          acc[q] = acc[q]! + data[p]!;
          acc[q + 1] = acc[q + 1]! + data[p + g]!;
          acc[q + 2] = acc[q + 2]! + data[p + b]!;
          acc[q + 3] = acc[q + 3]! + (a < 0 ? 255 : data[p + a]!);
        }
      }
    }
    for (let ox = 0; ox < width; ox++) {
      const n = (y1 - y0) * (xs.end[ox]! - xs.start[ox]!);
      const q = ox * 4;
      const o = (oy * width + ox) * 4;
      for (let k = 0; k < 4; k++) out[o + k] = Math.round(acc[q + k]! / n);
    }
  }
  return out;
}

/**
 * RGBA halved in both directions, each output pixel the mean of a 2×2 block (a last odd row or
 * column is dropped): the same numbers as `areaAverage` to ⌊w/2⌋×⌊h/2⌋ on even sizes, read a
 * pixel word at a time, which is several times faster on a screenshot.
 */
export function halveRgba(src: Pixels): Pixels {
  const width = Math.max(1, src.width >> 1);
  const height = Math.max(1, src.height >> 1);
  if (src.width < 2 || src.height < 2 || src.channels < 3) return { data: areaAverage({ src, width, height }), width, height, channels: 4 };
  if (src.channels === 3) return halveRgb(src, width, height);
  const aligned = src.data.byteOffset % 4 === 0 ? src.data : Uint8Array.from(src.data);
  const px = new Uint32Array(aligned.buffer, aligned.byteOffset, src.width * src.height);
  const out = new Uint32Array(width * height);
  for (let oy = 0; oy < height; oy++) {
    let i = 2 * oy * src.width;
    let j = i + src.width;
    let o = oy * width;
    for (let ox = 0; ox < width; ox++, i += 2, j += 2, o++) {
      const p0 = px[i]!;
      const p1 = px[i + 1]!;
      const p2 = px[j]!;
      const p3 = px[j + 1]!;
      // the four bytes of each word summed lane by lane: low and high pairs in 16-bit halves of two sums
      const lo = (p0 & 0xff00ff) + (p1 & 0xff00ff) + (p2 & 0xff00ff) + (p3 & 0xff00ff) + 0x20002;
      const hi = ((p0 >>> 8) & 0xff00ff) + ((p1 >>> 8) & 0xff00ff) + ((p2 >>> 8) & 0xff00ff) + ((p3 >>> 8) & 0xff00ff) + 0x20002;
      out[o] = ((lo >>> 2) & 0xff00ff) | (((hi >>> 2) & 0xff00ff) << 8);
    }
  }
  return { data: new Uint8Array(out.buffer), width, height, channels: 4 };
}

// halveRgba for RGB (a JPEG, or a PNG without alpha), a byte at a time.
function halveRgb(src: Pixels, width: number, height: number): Pixels {
  const { data } = src;
  const stride = src.width * 3;
  const out = new Uint8Array(width * height * 4);
  for (let oy = 0; oy < height; oy++) {
    let i = 2 * oy * stride;
    let o = oy * width * 4;
    for (let ox = 0; ox < width; ox++, i += 6, o += 4) {
      const j = i + stride;
      out[o] = (data[i]! + data[i + 3]! + data[j]! + data[j + 3]! + 2) >> 2;
      out[o + 1] = (data[i + 1]! + data[i + 4]! + data[j + 1]! + data[j + 4]! + 2) >> 2;
      out[o + 2] = (data[i + 2]! + data[i + 5]! + data[j + 2]! + data[j + 5]! + 2) >> 2;
      out[o + 3] = 255;
    }
  }
  return { data: out, width, height, channels: 4 };
}
