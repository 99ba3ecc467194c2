import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { decodeFrame, frameCache, reducedBy, signature } from "./decode.js";
import { diffImage } from "./diff-image.js";
import { areaAverage, halveRgba, type Pixels } from "./resample.js";
import { screenChange } from "./screen-change.js";

const frame = (name: string) => readFileSync(path.join(repoRoot, "test/fixtures/frames", name));

// The mean of each output pixel's source block, channel by channel, the slow obvious way.
function reference(src: Pixels, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const span = (i: number, from: number, to: number) => {
    const s = Math.min(from - 1, Math.floor((i * from) / to));
    return [s, Math.min(from, Math.max(s + 1, Math.floor(((i + 1) * from) / to)))] as const;
  };
  for (let oy = 0; oy < height; oy++)
    for (let ox = 0; ox < width; ox++) {
      const [x0, x1] = span(ox, src.width, width);
      const [y0, y1] = span(oy, src.height, height);
      for (let k = 0; k < 4; k++) {
        let sum = 0;
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += src.data[(y * src.width + x) * 4 + k]!;
        out[(oy * width + ox) * 4 + k] = Math.round(sum / ((x1 - x0) * (y1 - y0)));
      }
    }
  return out;
}

describe("area averaging", () => {
  const noise = (width: number, height: number): Pixels => ({
    data: Uint8Array.from({ length: width * height * 4 }, (_, i) => (i * 7919 + (i >> 3) * 104729) % 256),
    width,
    height,
    channels: 4,
  });

  it("areaAverage and halveRgba give each block's mean (shrinking, odd sizes, enlarging)", () => {
    const src = noise(37, 23);
    const even = noise(36, 22);
    expect(halveRgba(even).data).toEqual(reference(even, 18, 11));
    // an odd last row and column are dropped: the same blocks as the even crop
    const cropped: Pixels = {
      data: Uint8Array.from({ length: 36 * 22 * 4 }, (_, i) => src.data[Math.floor(i / (36 * 4)) * 37 * 4 + (i % (36 * 4))]!),
      width: 36,
      height: 22,
      channels: 4,
    };
    expect(halveRgba(src).data).toEqual(reference(cropped, 18, 11));
    for (const [w, h] of [
      [32, 18],
      [18, 11],
      [5, 3],
      [37, 23],
      [50, 30],
    ] as const)
      expect(areaAverage({ src, width: w, height: h })).toEqual(reference(src, w, h));
  });

  it("RGB and grey frames come out as opaque RGBA", () => {
    const rgb4: Pixels = { data: Uint8Array.from([10, 20, 30, 50, 60, 70, 0, 0, 0, 100, 100, 100, 9]), width: 2, height: 2, channels: 3 };
    expect(Array.from(halveRgba(rgb4).data)).toEqual([40, 45, 50, 255]);
    const rgb: Pixels = { data: Uint8Array.from([10, 20, 30, 50, 60, 70]), width: 2, height: 1, channels: 3 };
    expect(Array.from(areaAverage({ src: rgb, width: 1, height: 1 }))).toEqual([30, 40, 50, 255]);
    const grey: Pixels = { data: Uint8Array.from([0, 100]), width: 2, height: 1, channels: 1 };
    expect(Array.from(halveRgba({ ...grey, height: 2, data: Uint8Array.from([0, 100, 0, 100]) }).data)).toEqual([50, 50, 50, 255]);
  });
});

describe("decoding once for a run of comparisons", () => {
  it("a frame cache decodes each frame once, and the result matches uncached calls", async () => {
    const frames = frameCache();
    const [a, b] = [frame("dialog-before.png"), frame("dialog-after.png")];
    const cached = await screenChange(a, b, { frames });
    expect(frames.size).toBe(2);
    const first = await frames.get(a);
    await diffImage(a, b, { frames, maxWidth: 760 });
    expect(frames.size).toBe(2);
    expect(await frames.get(a)).toBe(first);
    expect(cached).toEqual(await screenChange(a, b));
  });

  it("a cached PNG's signature from its decoded pixels is the very signature of its bytes; a JPEG's comes from its bytes", async () => {
    for (const name of ["dialog-before.png", "window-after-move.png", "cursor-blink-1.png", "clock-tick-1.jpg"]) {
      const bytes = frame(name);
      const frames = frameCache();
      expect(await signature(bytes, "next", frames)).toEqual(await signature(bytes, "next"));
      expect(frames.get(bytes)?.pixels !== undefined).toBe(name.endsWith(".png"));
    }
  });

  it("a frame that does not decode rejects with BAD_FRAME every time it is asked for", async () => {
    const frames = frameCache();
    const bad = Buffer.from("garbage");
    await expect(decodeFrame(bad, "next", frames)).rejects.toThrow(/could not be decoded/);
    await expect(screenChange(frame("dialog-before.png"), bad, { frames })).rejects.toThrow(/could not be decoded/);
  });
});

describe("diffImage at a reduced width", () => {
  it("shrinks by the smallest whole factor that fits, and still marks the dialog and not the desktop", async () => {
    const d = await diffImage(frame("dialog-before.png"), frame("dialog-after.png"), { maxWidth: 760 });
    expect([d.width, d.height]).toEqual([640, 400]);
    expect(d.changedPixels).toBeGreaterThan(5_000 / 4);
    const { data, info } = await sharp(d.png).raw().toBuffer({ resolveWithObject: true });
    const red = (x: number, y: number) => {
      const i = (y * info.width + x) * info.channels;
      return data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 0;
    };
    expect(red(300, 194)).toBe(true); // the dialog's title bar (600, 389 at full size)
    expect(red(25, 25)).toBe(false); // the bare desktop
  });

  it("a frame narrower than maxWidth is diffed at its own size; a next frame of another size is scaled to the previous one", async () => {
    const small = await sharp(frame("dialog-after.png")).resize(640, 400).png().toBuffer();
    const own = await diffImage(small, small, { maxWidth: 760 });
    expect([own.width, own.height, own.changedPixels]).toEqual([640, 400, 0]);
    const mixed = await diffImage(frame("dialog-before.png"), small, { maxWidth: 760 });
    expect([mixed.width, mixed.height]).toEqual([640, 400]);
    expect(mixed.changedPixels).toBeGreaterThan(0);
    const decoded = await decodeFrame(frame("dialog-before.png"), "previous");
    expect([reducedBy(decoded, 3).width, reducedBy(decoded, 3).height]).toEqual([426, 266]);
  });
});
