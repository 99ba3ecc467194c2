import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import { cleanStaleTemps, openAtomicFile } from "#src/util/atomic-file.js";
import { acquireLock, type HeldLock } from "#src/util/file-lock.js";
import { FRAMES_DIR } from "./cassette.js";

/** The lock file every writer of a cassette takes, in the cassette's folder. */
export const LOCK_FILE = ".cua-contract.lock";

/**
 * Takes the cassette's lock (waiting a bounded time for another writer, exit 2 naming it after
 * that), then removes the temp files writers killed before their commit left behind.
 */
export function lockCassette(dir: string, options: { waitMs?: number } = {}): HeldLock {
  const lock = acquireLock({
    file: path.join(dir, LOCK_FILE),
    what: `the cassette ${dir}`,
    ...(options.waitMs !== undefined ? { waitMs: options.waitMs } : {}),
  });
  try {
    cleanStaleTemps(dir);
    if (isRealDir(path.join(dir, FRAMES_DIR))) cleanStaleTemps(path.join(dir, FRAMES_DIR));
  } catch (error) {
    lock.release();
    throw error;
  }
  return lock;
}

/** Whether the path is a folder itself (not a symbolic link to one). */
export function isRealDir(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

export type FileCheck = "absent" | "file";

/**
 * Checks what is at `file` before anything opens it: absent, or a regular file (after following a
 * link). A FIFO, device, socket or folder is refused, never opened (opening a FIFO blocks). With
 * `inside`, a symbolic link must resolve inside that folder (a side file is never read from
 * elsewhere). Refusals are UserErrors naming the file and the fix.
 */
export function checkRegularFile(
  file: string,
  o: { what: string; fix: string; inside?: string; code?: "BAD_CASSETTE" | "BAD_FRAME" | "BAD_INPUT" },
): FileCheck {
  const code = o.code ?? "BAD_CASSETTE";
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(file);
  } catch (error) {
    const c = (error as NodeJS.ErrnoException).code;
    if (c === "ENOENT" || c === "ENOTDIR") return "absent";
    throw new UserError(`${o.what} cannot be examined (${String(c ?? error)})`, { code, file, fix: o.fix, cause: error });
  }
  if (st.isSymbolicLink()) {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      throw new UserError(`${o.what} is a symbolic link to nothing`, { code, file, fix: o.fix });
    }
    if (o.inside !== undefined) {
      let root: string;
      try {
        root = realpathSync(o.inside);
      } catch {
        root = path.resolve(o.inside);
      }
      if (real !== root && !real.startsWith(`${root}${path.sep}`)) {
        throw new UserError(`${o.what} is a symbolic link out of the cassette (to ${real}); cua-contract does not follow it`, {
          code,
          file,
          fix: `Replace the link by a copy of the file itself (cp --remove-destination "${real}" "${file}").`,
        });
      }
    }
    st = statSync(file);
  }
  if (st.isFile()) return "file";
  const kind = st.isDirectory()
    ? "a directory"
    : st.isFIFO()
      ? "a FIFO (named pipe)"
      : st.isCharacterDevice() || st.isBlockDevice()
        ? "a device"
        : st.isSocket()
          ? "a socket"
          : "not a regular file";
  throw new UserError(`${o.what} is ${kind}, not a ${st.isDirectory() ? "" : "regular "}file`, { code, file, fix: o.fix });
}

/**
 * Reads a file that `checkRegularFile` accepted, refusing (not hanging on) anything that turned
 * into something else since: opened without blocking, checked again on the descriptor.
 */
export function readRegularFile(file: string, o: { what: string; fix: string; code?: "BAD_CASSETTE" | "BAD_FRAME" | "BAD_INPUT" }): Buffer {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UserError(`${o.what} is not a regular file`, { code: o.code ?? "BAD_CASSETTE", file, fix: o.fix });
    const out = Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < out.length) {
      const n = readSync(fd, out, at, out.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === out.length ? out : out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies a regular file to `to` the atomic way (temp beside it, checked writes, fsync, rename),
 * reading it in chunks. Refuses a source that is not a regular file.
 */
export function copyFileAtomic(from: string, to: string, o: { what: string; fix: string; inside?: string }): void {
  if (checkRegularFile(from, { ...o, code: "BAD_INPUT" }) === "absent") {
    throw new UserError(`${o.what} is missing`, { code: "BAD_INPUT", file: from, fix: o.fix });
  }
  const out = openAtomicFile({ file: to });
  try {
    copyRange({ from, start: 0, end: Number.POSITIVE_INFINITY, write: (b) => out.write(b) });
    out.commit();
  } catch (error) {
    out.abort();
    throw error;
  }
}

const COPY_CHUNK = 1 << 20;

/** Copies bytes [start, end) of a file, in chunks, to `write` (the chunk buffer is reused: copy it to keep it). */
export function copyRange(o: { from: string; start: number; end: number; write: (bytes: Uint8Array) => void }): number {
  const fd = openSync(o.from, constants.O_RDONLY | constants.O_NONBLOCK);
  const chunk = Buffer.allocUnsafe(COPY_CHUNK);
  let at = o.start;
  try {
    while (at < o.end) {
      const n = readSync(fd, chunk, 0, Math.min(COPY_CHUNK, o.end - at), at);
      if (n === 0) break;
      o.write(chunk.subarray(0, n));
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  return at - o.start;
}
