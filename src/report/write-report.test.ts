import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { screenChange } from "#src/harness/screen/screen-change.js";
import { signFrames } from "#src/harness/screen/sign-frames.js";
import { loadReportInput } from "./load-input.js";
import { buildReport } from "./write-report.js";

describe("buildReport on a cassette", () => {
  it("embeds each distinct frame once, compares each distinct pair once", async () => {
    const { html, stats } = await buildReport({ input: await loadReportInput("recordings/gtk3-demo-mcp"), screen: { screenChange } });
    const frames = readdirSync("recordings/gtk3-demo-mcp/frames").filter((f) => !f.endsWith(".sig.json"));
    expect(html.split("data:image/").length - 1).toBe(frames.length);
    expect(stats.compared).toBeLessThanOrEqual(stats.pairs);
    expect(html).not.toMatch(/<img|<script/);
  });

  it("still refuses an altered frame, naming it (frames are checked as they are loaded)", async () => {
    await using dir = await tmpDir();
    const copy = path.join(dir.path, "c");
    cpSync("recordings/gtk3-demo-mcp", copy, { recursive: true });
    const frame = readdirSync(path.join(copy, "frames")).find((f) => f.endsWith(".png"))!;
    writeFileSync(path.join(copy, "frames", frame), "not the frame");
    await expect(buildReport({ input: await loadReportInput(copy), screen: { screenChange } })).rejects.toThrow(
      `frame frames/${frame} does not match its hash`,
    );
  });

  it("judges every pair the same from signatures stored with the frames as from decoding them", async () => {
    await using dir = await tmpDir();
    for (const [name, from] of [
      ["mcp", "recordings/gtk3-demo-mcp"],
      ["cli", "recordings/gtk3-demo-cli"],
    ] as const) {
      const signed = path.join(dir.path, "a", name);
      const unsigned = path.join(dir.path, "b", name);
      cpSync(from, signed, { recursive: true });
      cpSync(from, unsigned, { recursive: true });
      await signFrames({ dir: signed, force: true });
      for (const f of readdirSync(path.join(unsigned, "frames"))) if (f.endsWith(".sig.json")) rmSync(path.join(unsigned, "frames", f));
      const a = await buildReport({ input: await loadReportInput(signed), screen: { screenChange } });
      const b = await buildReport({ input: await loadReportInput(unsigned), screen: { screenChange } });
      expect(a.stats.pairs, name).toBeGreaterThan(0);
      expect(a.stats, name).toEqual(b.stats);
      expect(a.html.replaceAll(signed, "DIR"), name).toBe(b.html.replaceAll(unsigned, "DIR"));
    }
  });

  it("uses a stored signature instead of decoding the frame (a planted one changes the verdict)", async () => {
    await using dir = await tmpDir();
    const copy = path.join(dir.path, "c");
    cpSync("recordings/gtk3-demo-mcp", copy, { recursive: true });
    await signFrames({ dir: copy, force: true });
    const before = await buildReport({ input: await loadReportInput(copy), screen: { screenChange } });
    expect(before.stats.changed).toBeGreaterThan(0);
    // every frame's stored signature made that of one frame: only a pair of frames of different
    // sizes (the window was resized) is still changed
    const sigs = readdirSync(path.join(copy, "frames")).filter((f) => f.endsWith(".sig.json"));
    const first = JSON.parse(readFileSync(path.join(copy, "frames", sigs[0]!), "utf8")) as { grey: string };
    for (const f of sigs) {
      const doc = JSON.parse(readFileSync(path.join(copy, "frames", f), "utf8")) as Record<string, unknown>;
      writeFileSync(path.join(copy, "frames", f), JSON.stringify({ ...doc, grey: first.grey }));
    }
    const after = await buildReport({ input: await loadReportInput(copy), screen: { screenChange } });
    expect(after.stats.changed).toBeLessThan(before.stats.changed);
    expect(after.stats.compared).toBe(before.stats.compared);
  });
});
