import { cpSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { screenChange } from "#src/harness/screen/screen-change.js";
import { loadReportInput } from "./load-input.js";
import { buildReport } from "./write-report.js";

describe("buildReport on a cassette", () => {
  it("embeds each distinct frame once, compares each distinct pair once", async () => {
    const { html, stats } = await buildReport({ input: await loadReportInput("recordings/gtk3-demo-mcp"), screen: { screenChange } });
    const frames = readdirSync("recordings/gtk3-demo-mcp/frames");
    expect(html.split("data:image/").length - 1).toBe(frames.length);
    expect(stats.compared).toBeLessThanOrEqual(stats.pairs);
    expect(html).not.toMatch(/<img|<script/);
  });

  it("still refuses an altered frame, naming it (frames are checked as they are loaded)", async () => {
    await using dir = await tmpDir();
    const copy = path.join(dir.path, "c");
    cpSync("recordings/gtk3-demo-mcp", copy, { recursive: true });
    const frame = readdirSync(path.join(copy, "frames"))[0]!;
    writeFileSync(path.join(copy, "frames", frame), "not the frame");
    await expect(buildReport({ input: await loadReportInput(copy), screen: { screenChange } })).rejects.toThrow(
      `frame frames/${frame} does not match its hash`,
    );
  });
});
