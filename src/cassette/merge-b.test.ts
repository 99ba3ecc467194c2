import { appendFileSync, cpSync } from "node:fs";
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
});
