import { closeSync, constants, openSync, readSync } from "node:fs";
import { CassetteHeaderSchema, type CassetteHeader } from "#src/schema/cassette.js";
import { openAtomicFile } from "#src/util/atomic-file.js";
import { copyRange } from "./safe-files.js";

/**
 * Rewrites line 1 of a cassette.jsonl (the header), copying every other byte as it is: through a
 * temp file renamed over the old one, so a crash leaves the old file or the new one. The caller
 * holds the cassette's lock.
 */
export function rewriteHeader(file: string, header: CassetteHeader): void {
  const end = firstNewline(file);
  const out = openAtomicFile({ file });
  try {
    out.write(`${JSON.stringify(CassetteHeaderSchema.parse(header))}`);
    copyRange({ from: file, start: end, end: Number.POSITIVE_INFINITY, write: (b) => out.write(b) });
    out.commit();
  } catch (error) {
    out.abort();
    throw error;
  }
}

function firstNewline(file: string): number {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const chunk = Buffer.allocUnsafe(1 << 16);
  let at = 0;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n === 0) return at;
      const nl = chunk.subarray(0, n).indexOf(0x0a);
      if (nl >= 0) return at + nl;
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}
