import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import { GateHistoryEntrySchema, type GateHistoryEntry } from "#src/schema/gate-history.js";
import { existingMode, makePrivateDir, openAtomicFile, PRIVATE_FILE_MODE } from "#src/util/atomic-file.js";
import { acquireLock } from "#src/util/file-lock.js";

/**
 * Appends one matrix run to a JSON Lines history file (created when missing; earlier lines are
 * kept byte for byte). The new file is written beside the old one and renamed over it, under a
 * lock (`FILE.lock`): a crash or a full disk leaves the old history, two runs at once both land.
 * A torn last line (a run killed while appending, before this way of writing) is kept on its own
 * line, never glued to the new entry.
 */
export function appendHistory(file: string, entry: GateHistoryEntry): void {
  const line = `${JSON.stringify(GateHistoryEntrySchema.parse(entry))}\n`;
  const target = path.resolve(file);
  makePrivateDir(path.dirname(target), "--history");
  const lock = acquireLock({ file: `${target}.lock`, what: `the history ${file}` });
  try {
    const old = readExisting(target);
    const out = openAtomicFile({ file: target, field: "--history", mode: existingMode(target) ?? PRIVATE_FILE_MODE });
    try {
      out.write(old);
      if (old.length > 0 && old[old.length - 1] !== 0x0a) out.write("\n");
      out.write(line);
      out.commit();
    } catch (error) {
      out.abort();
      throw error;
    }
  } finally {
    lock.release();
  }
}

function readExisting(file: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return Buffer.alloc(0);
    throw historyError(file, (error as Error).message);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw historyError(file, "it is not a regular file");
    const bytes = Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return bytes.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

function historyError(file: string, why: string): UserError {
  return new UserError(`cannot append to ${file}: ${why}`, {
    code: "USAGE",
    file,
    field: "--history",
    fix: "Name a regular file for --history (it is created when missing).",
  });
}
