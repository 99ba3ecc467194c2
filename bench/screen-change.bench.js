// screenChange on two 1280×800 PNGs ÷ sharp's decode of the same two PNGs (the floor).
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { screenChange } from "../dist/harness/screen/screen-change.js";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "screen-change";
export const title = "Perceptual screen change (screenChange) vs decoding the frames";

const frame = (n) => readFileSync(new URL(`../test/fixtures/frames/${n}`, import.meta.url));

export async function run() {
  const a = frame("dialog-before.png");
  const b = frame("dialog-after.png");
  const same = Buffer.from(a);
  const decode = (x) => sharp(x).raw().toBuffer();
  const times = await timeInterleaved(
    {
      floor: () => Promise.all([decode(a), decode(b)]),
      different: () => screenChange(a, b),
      identical: () => screenChange(a, same),
    },
    { runs: 60, warmup: 8 },
  );
  const floor = median(times.floor);
  const different = median(times.different) / floor;
  const identical = median(times.identical) / floor;
  const verdict = (ratio, target) => (ratio <= target ? "pass" : "miss");
  return [
    "Frames: `test/fixtures/frames/dialog-before.png` and `dialog-after.png` (1280×800, real Xvfb captures); the floor is `sharp(png).raw().toBuffer()` on both, concurrently. Median of 60 interleaved runs.",
    "",
    "| case | median ms | ÷ floor | target | result |",
    "| --- | --- | --- | --- | --- |",
    `| floor: decode both PNGs | ${fmt(floor, 3)} | 1.00 | – | – |`,
    `| screenChange, different images | ${fmt(median(times.different), 3)} | ${fmt(different)} | ≤ 1.5 | ${verdict(different, 1.5)} |`,
    `| screenChange, identical bytes | ${fmt(median(times.identical), 4)} | ${fmt(identical, 4)} | ≤ 0.05 | ${verdict(identical, 0.05)} |`,
  ].join("\n");
}
