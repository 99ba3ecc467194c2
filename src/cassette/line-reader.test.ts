import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { readLines } from "./line-reader.js";

const opts = (file: string) => ({ file, what: "cassette.jsonl", fix: "Pass the cassette directory." });

describe("readLines", () => {
  it("yields each line with its number and byte offset, across chunk boundaries and multi-byte characters", async () => {
    await using dir = await tmpDir();
    const file = path.join(dir.path, "x.jsonl");
    const long = "é".repeat(700_000); // 1.4 MB: spans two 1 MiB chunks
    writeFileSync(file, `a\n${long}\n\nlast`);
    const lines = [...readLines(opts(file))];
    expect(lines.map((l) => ({ ...l, text: l.text.length }))).toEqual([
      { line: 1, text: 1, offset: 0, bytes: 1 },
      { line: 2, text: 700_000, offset: 2, bytes: 1_400_000 },
      { line: 3, text: 0, offset: 1_400_003, bytes: 0 },
      { line: 4, text: 4, offset: 1_400_004, bytes: 4 },
    ]);
    expect(lines[1]!.text).toBe(long);
  });

  it("a final newline ends the last line", async () => {
    await using dir = await tmpDir();
    const file = path.join(dir.path, "x.jsonl");
    writeFileSync(file, "a\nb\n");
    expect([...readLines(opts(file))].map((l) => l.text)).toEqual(["a", "b"]);
  });

  it("says what went wrong: missing, a directory, a line too large to read", async () => {
    await using dir = await tmpDir();
    const file = path.join(dir.path, "cassette.jsonl");
    expect(() => [...readLines(opts(file))]).toThrow(`${file}: cassette.jsonl is missing. Pass the cassette directory.`);
    mkdirSync(file);
    expect(() => [...readLines(opts(file))]).toThrow(`${file}: cassette.jsonl is a directory, not a file. Pass the cassette directory.`);
    const big = path.join(dir.path, "big.jsonl");
    writeFileSync(big, `ok\n${"x".repeat(5000)}\n`);
    expect(() => [...readLines({ ...opts(big), maxLineBytes: 4096 })]).toThrow(
      `${big}:2: line 2 of cassette.jsonl is too large to read (over 4096 bytes; at least 5000). A line this long was not written by cua-contract; cut the line out by hand, or re-record.`,
    );
  });
});

describe("scanCassette and readEventAt", () => {
  it("hands each event with its place, keeps none, and reads one again from its place", async () => {
    const { scanCassette } = await import("./scan.js");
    const { readEventAt } = await import("./event-at.js");
    const { schemaValidators } = await import("./reader.js");
    const places: Array<{ seq: number; place: import("./scan.js").EventPlace }> = [];
    const scan = scanCassette({
      dir: "recordings/gtk3-demo-mcp",
      validators: schemaValidators,
      frames: "skip",
      onEvent: (e, place) => places.push({ seq: e.seq, place }),
    });
    expect(scan.events).toBe(places.length);
    expect(places.length).toBeGreaterThan(40);
    for (const { seq, place } of [places[0]!, places[17]!, places.at(-1)!]) {
      expect(readEventAt({ file: scan.file, place, validators: schemaValidators }).seq).toBe(seq);
    }
  });

  it("readScannedEvent: the line at a place must still be the event scanned there", async () => {
    const { cpSync, readFileSync, writeFileSync } = await import("node:fs");
    const { scanCassette } = await import("./scan.js");
    const { fileStamp, readScannedEvent } = await import("./event-at.js");
    const { schemaValidators } = await import("./reader.js");
    await using dir = await tmpDir();
    cpSync("recordings/gtk3-demo-cli", dir.path, { recursive: true });
    const places: Array<{ seq: number; place: import("./scan.js").EventPlace }> = [];
    const scan = scanCassette({ dir: dir.path, validators: schemaValidators, frames: "skip", onEvent: (e, place) => places.push({ seq: e.seq, place }) });
    const { seq, place } = places[3]!;
    expect(readScannedEvent({ file: scan.file, place, seq, stamp: fileStamp(scan.file) }).seq).toBe(seq);
    // the same bytes count, another event there
    const text = readFileSync(scan.file, "utf8");
    writeFileSync(scan.file, text.replace(`{"seq":${seq},`, `{"seq":${seq + 1},`.length === `{"seq":${seq},`.length ? `{"seq":${seq + 1},` : `{"seq":${seq},`));
    expect(() => readScannedEvent({ file: scan.file, place, seq, stamp: fileStamp(scan.file) })).toThrow(
      `cassette.jsonl changed while it was in use (the line there is no longer event ${seq})`,
    );
  });
});
