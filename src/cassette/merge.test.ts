import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { mergeCassettes } from "./merge.js";
import { readCassetteSync } from "./reader.js";

const linesOf = (dir: string) => readFileSync(path.join(dir, "cassette.jsonl")).toString("latin1").replace(/\n$/, "").split("\n");

describe("cassette merge: B's events after A's", () => {
  it("moves seq, t_ms and MCP streams past A's and keeps the rest of each of B's lines byte for byte", async () => {
    await using tmp = await tmpDir();
    const a = "recordings/gtk3-demo-mcp";
    const b = path.join(tmp.path, "b");
    cpSync(a, b, { recursive: true });
    // one line laid out otherwise (keys in another order), one with a byte that is not UTF-8 in a string
    const lines = linesOf(b);
    const moved = JSON.parse(lines[3]!) as Record<string, unknown>;
    const { seq, t_ms, ...rest } = moved;
    lines[3] = JSON.stringify({ ...rest, t_ms, seq });
    lines[1] = lines[1]!.replace('"stderr":"', '"stderr":"\xff');
    writeFileSync(path.join(b, "cassette.jsonl"), Buffer.from(`${lines.join("\n")}\n`, "latin1"));

    const out = path.join(tmp.path, "ab");
    mergeCassettes({ a, b, out });
    const A = readCassetteSync(a, { frames: "skip" }).events;
    const B = readCassetteSync(b, { frames: "skip" }).events;
    const merged = readCassetteSync(out, { frames: "verify" }).events;
    expect(merged).toHaveLength(A.length + B.length);
    expect(merged.slice(0, A.length)).toEqual(A);
    const seqShift = Math.max(...A.map((e) => e.seq)) + 1;
    const tShift = Math.max(...A.map((e) => e.t_ms + ("duration_ms" in e ? e.duration_ms : 0))) + 1;
    const streamShift = Math.max(...A.map((e) => ("stream" in e ? e.stream : -1))) + 1;
    expect(streamShift).toBeGreaterThan(0);
    expect(merged.slice(A.length)).toEqual(
      B.map((e) => ({ ...e, seq: e.seq + seqShift, t_ms: e.t_ms + tShift, ...("stream" in e ? { stream: e.stream + streamShift } : {}) })),
    );
    // after the moved numbers, B's bytes as they were (the byte that is not UTF-8 included)
    const outLines = linesOf(out).slice(1 + A.length);
    const tail = (l: string) => l.slice(l.indexOf('"kind":'));
    expect(outLines[0]!.includes('"stderr":"\xff')).toBe(true);
    for (const [i, l] of outLines.entries())
      if (i !== 2)
        expect(tail(l).replace(/^("kind":"[a-z_]+",)"stream":\d+,/, "$1")).toBe(tail(lines[i + 1]!).replace(/^("kind":"[a-z_]+",)"stream":\d+,/, "$1"));
  });

  it("a B that is not there is named as such (exit 2), not as a file that could not be checked", async () => {
    await using tmp = await tmpDir();
    const missing = path.join(tmp.path, "nope");
    expect(() => mergeCassettes({ a: "recordings/gtk3-demo-mcp", b: missing, out: path.join(tmp.path, "ab") })).toThrow(
      expect.objectContaining({ message: expect.stringContaining(`no cassette directory at ${missing}`), exitCode: 2 }),
    );
  });
});
