import { closeSync, constants, openSync, readSync } from "node:fs";
import type { AtomicFile } from "#src/util/atomic-file.js";

/** A line of cassette.jsonl to copy: its byte offset and length (without its newline), as a scan gives them. */
export interface KeptLine {
  offset: number;
  bytes: number;
}

const CHUNK = 1 << 20;

/**
 * Copies lines of a cassette file byte for byte (no decoding: invalid UTF-8 stays what it was),
 * each followed by a newline. The file is read in order in 1 MiB chunks and the kept ranges of each
 * chunk are written from it: lines next to each other in the file go as one range, and a dropped
 * line between two kept ones costs no read of its own. `header: true` copies line 1 first.
 */
export function copyKeptLines(o: { from: string; header: boolean; lines: readonly KeptLine[]; out: Pick<AtomicFile, "write"> }): void {
  const fd = openSync(o.from, constants.O_RDONLY | constants.O_NONBLOCK);
  const chunk = Buffer.allocUnsafe(CHUNK);
  // the file's bytes chunk[0, have) start at file offset `at`
  let at = 0;
  let have = 0;
  const copy = (start: number, end: number) => {
    let from = start;
    while (from < end) {
      if (from < at || from >= at + have) {
        // read from `from` on, a whole chunk (bytes past `end` serve the ranges after it)
        have = readSync(fd, chunk, 0, CHUNK, from);
        at = from;
        if (have === 0) throw new Error(`${o.from} is shorter than when it was read (changed by another program meanwhile?)`);
      }
      const to = Math.min(end, at + have);
      o.out.write(chunk.subarray(from - at, to - at));
      from = to;
    }
  };
  try {
    if (o.header) copy(0, headerEnd(fd, chunk) + 1);
    let start = -1;
    let end = -1;
    for (const line of o.lines) {
      if (line.offset === end) {
        end = line.offset + line.bytes + 1;
        continue;
      }
      if (start >= 0) copy(start, end);
      start = line.offset;
      end = line.offset + line.bytes + 1;
    }
    if (start >= 0) {
      // the last line may lack its newline only if it was the file's last (a scan drops a torn one)
      copy(start, end - 1);
      o.out.write(NEWLINE);
    }
  } finally {
    closeSync(fd);
  }
}

const NEWLINE = Buffer.from("\n");

function headerEnd(fd: number, chunk: Buffer): number {
  let at = 0;
  for (;;) {
    const n = readSync(fd, chunk, 0, CHUNK, at);
    if (n === 0) throw new Error("cassette.jsonl has no newline after its header");
    const nl = chunk.subarray(0, n).indexOf(0x0a);
    if (nl >= 0) return at + nl;
    at += n;
  }
}

/**
 * Hands the bytes of each of `lines` (without its newline) to `onLine`, reading the file in order in
 * 1 MiB chunks: nothing is decoded. The Buffer is valid only during the call.
 */
export function eachKeptLine<L extends KeptLine>(o: { from: string; lines: readonly L[]; onLine: (bytes: Buffer, line: L) => void }): void {
  const fd = openSync(o.from, constants.O_RDONLY | constants.O_NONBLOCK);
  let chunk = Buffer.allocUnsafe(CHUNK);
  // the file's bytes chunk[0, have) start at file offset `at`
  let at = 0;
  let have = 0;
  const fill = (start: number, end: number) => {
    if (end - start > chunk.length) chunk = Buffer.allocUnsafe(end - start);
    let got = 0;
    // read ahead a whole chunk from `start`, but at least up to `end`
    while (got < end - start) {
      const n = readSync(fd, chunk, got, chunk.length - got, start + got);
      if (n === 0) throw new Error(`${o.from} is shorter than when it was read (changed by another program meanwhile?)`);
      got += n;
    }
    at = start;
    have = got;
  };
  try {
    for (const line of o.lines) {
      const end = line.offset + line.bytes;
      if (line.offset < at || end > at + have) fill(line.offset, end);
      o.onLine(chunk.subarray(line.offset - at, end - at), line);
    }
  } finally {
    closeSync(fd);
  }
}
