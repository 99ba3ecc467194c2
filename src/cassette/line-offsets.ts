import { closeSync, constants, openSync, readSync } from "node:fs";

/**
 * The byte offset where each line of a file starts (index 0: line 1), and one more entry: the
 * offset just past the last newline plus one, so line N spans [offsets[N-1], offsets[N] - 1).
 * A last line without a newline ends at the file's end.
 */
export function lineOffsets(file: string): number[] {
  const offsets = [0];
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const chunk = Buffer.allocUnsafe(1 << 20);
  let at = 0;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n === 0) break;
      let i = chunk.indexOf(0x0a, 0);
      while (i >= 0 && i < n) {
        offsets.push(at + i + 1);
        i = chunk.indexOf(0x0a, i + 1);
      }
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  if (offsets[offsets.length - 1] !== at) offsets.push(at + 1);
  return offsets;
}
