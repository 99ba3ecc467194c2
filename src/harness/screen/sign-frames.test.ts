import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../../test/helpers/tmp-dir.js";
import { signatureFileOf, storedFrameRefs } from "#src/cassette/frame-signature.js";
import { signature } from "./decode.js";
import { signFrames, storedSignature } from "./sign-frames.js";

/** A copy of a bundled recording with no signatures stored. */
function unsignedCopy(to: string, from = "recordings/gtk3-demo-mcp"): string {
  cpSync(from, to, { recursive: true });
  for (const f of readdirSync(path.join(to, "frames"))) if (f.endsWith(".sig.json")) rmSync(path.join(to, "frames", f));
  return to;
}

const sigFile = (dir: string, ref: string) => path.join(dir, signatureFileOf(ref)!);

describe("signFrames", () => {
  it("stores each frame's signature beside it (0600), the same one signature() computes from the bytes", async () => {
    await using tmp = await tmpDir();
    const dir = unsignedCopy(path.join(tmp.path, "c"));
    const refs = storedFrameRefs(dir);
    expect(refs.length).toBe(4);
    const r = await signFrames({ dir });
    expect(r).toEqual({ frames: 4, signed: 4, kept: 0, unsigned: [] });
    for (const ref of refs) {
      expect(statSync(sigFile(dir, ref)).mode & 0o777).toBe(0o600);
      const bytes = readFileSync(path.join(dir, ref));
      const stored = storedSignature({ dir, ref, bytes });
      const computed = await signature(bytes, "frame");
      expect(stored?.width).toBe(computed.width);
      expect(stored?.height).toBe(computed.height);
      expect(Buffer.from(stored!.rgba).equals(Buffer.from(computed.rgba))).toBe(true);
    }
    // a second run keeps them; --force computes them again
    expect(await signFrames({ dir })).toEqual({ frames: 4, signed: 0, kept: 4, unsigned: [] });
    expect(await signFrames({ dir, force: true })).toEqual({ frames: 4, signed: 4, kept: 0, unsigned: [] });
  });

  it("leaves a frame it cannot read or decode unsigned, saying why, and signs the rest", async () => {
    await using tmp = await tmpDir();
    const dir = unsignedCopy(path.join(tmp.path, "c"));
    const [altered, ...rest] = storedFrameRefs(dir);
    writeFileSync(path.join(dir, altered!), "not the frame");
    const r = await signFrames({ dir });
    expect(r.signed).toBe(rest.length);
    expect(r.unsigned).toEqual([{ ref: altered, why: expect.stringContaining("does not match its hash") }]);
    expect(readdirSync(path.join(dir, "frames")).filter((f) => f.endsWith(".sig.json")).length).toBe(rest.length);
  });

  it("reports progress after each frame", async () => {
    await using tmp = await tmpDir();
    const dir = unsignedCopy(path.join(tmp.path, "c"));
    const seen: string[] = [];
    await signFrames({ dir, onProgress: (done, total) => seen.push(`${done}/${total}`) });
    expect(seen).toEqual(["1/4", "2/4", "3/4", "4/4"]);
  });
});

describe("storedSignature ignores what it cannot trust", () => {
  async function signed(tmp: string) {
    const dir = unsignedCopy(path.join(tmp, "c"));
    await signFrames({ dir });
    const [ref, other] = storedFrameRefs(dir);
    const doc = JSON.parse(readFileSync(sigFile(dir, ref!), "utf8")) as Record<string, unknown>;
    const rewrite = (change: Record<string, unknown>) => writeFileSync(sigFile(dir, ref!), JSON.stringify({ ...doc, ...change }));
    return { dir, ref: ref!, other: other!, bytes: readFileSync(path.join(dir, ref!)), rewrite };
  }

  it.each([
    ["made another way", { method: "some-older-method/0" }],
    ["for another frame", { frame: "frames/0000000000000000000000000000000000000000000000000000000000000000.png" }],
    ["for a frame of another size", { width: 10 }],
    ["with a grid of the wrong length", { grey: "AAAA" }],
    ["with another grid size", { columns: 16, rows: 36 }],
    ["in another format", { format: "something-else" }],
  ])("a signature %s", async (_what, change) => {
    await using tmp = await tmpDir();
    const s = await signed(tmp.path);
    expect(storedSignature({ dir: s.dir, ref: s.ref, bytes: s.bytes })).toBeDefined();
    s.rewrite(change);
    expect(storedSignature({ dir: s.dir, ref: s.ref, bytes: s.bytes })).toBeUndefined();
  });

  it("a file that is not JSON, and a frame with no file", async () => {
    await using tmp = await tmpDir();
    const s = await signed(tmp.path);
    writeFileSync(sigFile(s.dir, s.ref), "{torn");
    expect(storedSignature({ dir: s.dir, ref: s.ref, bytes: s.bytes })).toBeUndefined();
    rmSync(sigFile(s.dir, s.other));
    expect(storedSignature({ dir: s.dir, ref: s.other })).toBeUndefined();
  });
});
