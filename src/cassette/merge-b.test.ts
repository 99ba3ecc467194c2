import { appendFileSync, cpSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { fileState, writeShiftedLines } from "./merge-b.js";
import type { EventPlace } from "./scan.js";

describe("merge's copy of B", () => {
  it("refuses a B written to since its scan (was: merged with what B had become, against counts of what it was)", async () => {
    await using tmp = await tmpDir();
    const b = path.join(tmp.path, "b");
    cpSync("test/fixtures/cassettes/replay-cli-gtk", b, { recursive: true });
    const file = path.join(b, "cassette.jsonl");
    const checked = fileState(file);
    const written: string[] = [];
    const out = { write: (d: string | Uint8Array) => void written.push(String(d)) };
    const lines: EventPlace[] = [];
    const shift = { seq: 10, t: 1, stream: 0 };
    // unchanged: copied
    writeShiftedLines({ file, lines, shift, out, checked });
    // another program appends a line between the scan and the copy
    appendFileSync(file, `${JSON.stringify({ seq: 99, t_ms: 999, kind: "cli", argv: ["--version"], stdout: "", stderr: "", exit_code: 0, duration_ms: 1 })}\n`);
    expect(() => writeShiftedLines({ file, lines, shift, out, checked })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/b\/cassette\.jsonl: the cassette changed while it was being merged/), exitCode: 2 }),
    );
  });

  it("a B cut short under the copy is the same refusal, not a crash of the reader", async () => {
    await using tmp = await tmpDir();
    const file = path.join(tmp.path, "cassette.jsonl");
    // three lines of 600 KiB: the copy reads 1 MiB at a time, so the third is read after the first is written
    const lines = [1, 2, 3].map((seq) =>
      JSON.stringify({ seq, t_ms: seq, kind: "cli", argv: ["call", "list_windows"], stdout: "x".repeat(600 * 1024), stderr: "", exit_code: 0, duration_ms: 1 }),
    );
    writeFileSync(file, `${lines.join("\n")}\n`);
    let offset = 0;
    const places: EventPlace[] = lines.map((l, i) => {
      const place = { line: i + 1, offset, bytes: Buffer.byteLength(l) };
      offset += place.bytes + 1;
      return place;
    });
    const checked = fileState(file);
    let cut = false;
    const out = {
      write: () => {
        if (!cut) truncateSync(file, places[1]!.offset);
        cut = true;
      },
    };
    expect(() => writeShiftedLines({ file, lines: places, shift: { seq: 10, t: 1, stream: 0 }, out, checked })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/the cassette changed while it was being merged/), exitCode: 2 }),
    );
  });
});
