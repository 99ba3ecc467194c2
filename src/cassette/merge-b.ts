import { statSync } from "node:fs";
import { UserError } from "#src/errors.js";
import { MAX_SEQ } from "#src/schema/cassette.js";
import type { AtomicFile } from "#src/util/atomic-file.js";
import { eachKeptLine } from "./copy-lines.js";
import { fastValidators } from "./fast-validators.js";
import type { EventPlace } from "./scan.js";
import { shiftLineHead, type Shift } from "./shift-line.js";

/**
 * Merge's copy of cassette B after A: each of B's event lines (the places B's scan validated) with
 * seq, t_ms and stream moved, the rest of the line byte for byte where its layout allows (else read
 * as JSON, moved, written again). `checked` is B's `fileState` from before that scan: a B that is
 * not the file the scan read, before or after the copy, is refused.
 */
export function writeShiftedLines(o: { file: string; lines: readonly EventPlace[]; shift: Shift; out: Pick<AtomicFile, "write">; checked: string }): void {
  if (fileState(o.file) !== o.checked) throw changedMeanwhile(o.file);
  try {
    copyShifted(o);
  } catch (error) {
    // B replaced or cut short under the copy: a line is missing or torn; say that, not how it broke
    if (fileState(o.file) !== o.checked) throw changedMeanwhile(o.file);
    throw error;
  }
  if (fileState(o.file) !== o.checked) throw changedMeanwhile(o.file);
}

function copyShifted(o: { file: string; lines: readonly EventPlace[]; shift: Shift; out: Pick<AtomicFile, "write"> }): void {
  eachKeptLine({
    from: o.file,
    lines: o.lines,
    onLine: (bytes, place) => {
      const fast = shiftLineHead(bytes, o.shift);
      if (fast && fast.seq <= MAX_SEQ) {
        o.out.write(fast.head);
        o.out.write(fast.rest);
        o.out.write(NEWLINE);
        return;
      }
      const e = fastValidators.event(JSON.parse(bytes.toString("utf8")), o.file, place.line);
      const shifted = { ...e, seq: e.seq + o.shift.seq, t_ms: e.t_ms + o.shift.t, ...("stream" in e ? { stream: e.stream + o.shift.stream } : {}) };
      // only seq has a bound to pass
      if (shifted.seq > MAX_SEQ) {
        throw new UserError(`event seq ${e.seq} cannot be moved past A's events (seq ${shifted.seq} would be over 2^48)`, {
          code: "BAD_INPUT",
          file: o.file,
          line: place.line,
          fix: "Merge cassettes whose seq numbers add up to less than 2^48 (renumber them, or re-record).",
        });
      }
      o.out.write(`${JSON.stringify(shifted)}\n`);
    },
  });
}

const NEWLINE = Buffer.from("\n");

/** Size, change time and inode of a file: whether it is the one a scan read (a file that is not there is the scan's to report). */
export function fileState(file: string): string {
  const st = statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : "absent";
}

function changedMeanwhile(file: string): UserError {
  return new UserError("the cassette changed while it was being merged", {
    code: "BAD_INPUT",
    file,
    fix: "Another program wrote to it meanwhile: wait for that to finish, then merge again.",
  });
}
