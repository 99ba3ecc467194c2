import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { isUserError } from "#src/errors.js";
import { perceptualCompareFrames } from "./compare-frames.js";
import { diffImage } from "./diff-image.js";
import { screenChange } from "./screen-change.js";

const frame = (name: string) => readFileSync(path.join(repoRoot, "test/fixtures/frames", name));

describe("screenChange on real Xvfb frames", () => {
  it.each([
    ["clock-tick-1.png", "clock-tick-2.png"],
    ["clock-tick-1.jpg", "clock-tick-2.jpg"],
    ["cursor-blink-1.png", "cursor-blink-2.png"],
  ])("%s → %s is similar", async (a, b) => {
    const r = await screenChange(frame(a), frame(b));
    expect(r.kind).toBe("similar");
    expect(r.changedFraction).toBeLessThan(0.02);
  });

  it.each([
    ["dialog-before.png", "dialog-after.png"],
    ["window-before-move.png", "window-after-move.png"],
  ])("%s → %s is changed", async (a, b) => {
    const r = await screenChange(frame(a), frame(b));
    expect(r.kind).toBe("changed");
    expect(r.changedFraction).toBeGreaterThanOrEqual(0.02);
  });

  it("identical bytes are identical without a decode (even bytes that are not an image)", async () => {
    expect(await screenChange(frame("dialog-before.png"), frame("dialog-before.png"))).toEqual({ kind: "identical", changedFraction: 0 });
    expect(await screenChange(Buffer.from("not a png"), Buffer.from("not a png"))).toEqual({ kind: "identical", changedFraction: 0 });
  });

  it("the same picture in PNG and JPEG is similar, not identical", async () => {
    expect((await screenChange(frame("clock-tick-1.png"), frame("clock-tick-1.jpg"))).kind).toBe("similar");
  });

  it("both thresholds are configurable", async () => {
    const tick = await screenChange(frame("clock-tick-1.png"), frame("clock-tick-2.png"), { cellThreshold: 0 });
    expect(tick.changedFraction).toBeGreaterThan(0);
    expect(tick.kind).toBe("similar");
    expect((await screenChange(frame("clock-tick-1.png"), frame("clock-tick-2.png"), { cellThreshold: 0, similarBelow: tick.changedFraction })).kind).toBe(
      "changed",
    );
    expect((await screenChange(frame("dialog-before.png"), frame("dialog-after.png"), { similarBelow: 0.9 })).kind).toBe("similar");
  });

  it("frames of different sizes are changed", async () => {
    const small = await sharp(frame("dialog-before.png")).resize(640, 400).png().toBuffer();
    expect(await screenChange(frame("dialog-before.png"), small)).toEqual({ kind: "changed", changedFraction: 1 });
  });

  it("an undecodable frame is a BAD_FRAME error naming which one", async () => {
    const err = await screenChange(frame("dialog-before.png"), Buffer.from("garbage")).catch((e: unknown) => e);
    expect(isUserError(err)).toBe(true);
    expect((err as Error).message).toMatch(/^next: The next frame could not be decoded as PNG or JPEG/);
  });

  it("the session comparator counts an undecodable frame as changed", async () => {
    const ok = frame("clock-tick-1.png").toString("base64");
    expect(
      await perceptualCompareFrames({ data: ok, mimeType: "image/png" }, { data: frame("clock-tick-2.png").toString("base64"), mimeType: "image/png" }),
    ).toBe(false);
    expect(await perceptualCompareFrames({ data: ok, mimeType: "image/png" }, { data: "AAAA", mimeType: "image/png" })).toBe(true);
  });
});

describe("diffImage", () => {
  it("highlights the dialog, not the bare desktop", async () => {
    const d = await diffImage(frame("dialog-before.png"), frame("dialog-after.png"));
    expect(d.width).toBe(1280);
    expect(d.height).toBe(800);
    expect(d.changedPixels).toBeGreaterThan(5_000);
    const { data, info } = await sharp(d.png).raw().toBuffer({ resolveWithObject: true });
    const red = (x: number, y: number) => {
      const i = (y * info.width + x) * info.channels;
      return data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 0;
    };
    expect(red(600, 389)).toBe(true); // the dialog's title bar
    expect(red(50, 50)).toBe(false); // the bare desktop
  });

  it("two identical frames have no changed pixels", async () => {
    expect((await diffImage(frame("clock-tick-1.png"), frame("clock-tick-1.png"))).changedPixels).toBe(0);
  });
});
