import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "./frame-ref.js";
import { writeFrame } from "./frame-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("frame store", () => {
  it("a truncated frame under its hash name is written again, not reused (was: reused by every later recording)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cua-frames-"));
    dirs.push(dir);
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(5000, 7)]);
    const name = `frames/${sha256Hex(bytes)}.png`;
    writeFrame({ dir, bytes, ext: "png" });
    // a disk that filled while it was written left half of it (an earlier version kept it)
    writeFileSync(path.join(dir, name), bytes.subarray(0, 1000));
    // a fresh process has not seen it: its check reads the file
    const fresh = mkdtempSync(path.join(os.tmpdir(), "cua-frames-"));
    dirs.push(fresh);
    mkdirSync(path.join(fresh, "frames"));
    copyFileSync(path.join(dir, name), path.join(fresh, name));
    expect(writeFrame({ dir: fresh, bytes, ext: "png" })).toBe(name);
    expect(sha256Hex(readFileSync(path.join(fresh, name)))).toBe(sha256Hex(bytes));
    expect(readdirSync(path.join(fresh, "frames"))).toEqual([path.basename(name)]);
  });
});
