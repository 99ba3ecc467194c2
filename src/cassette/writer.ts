import { closeSync, constants, existsSync, fchmodSync, fstatSync, fsyncSync, ftruncateSync, openSync, readdirSync, readSync, rmSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import type { FrameRef } from "#src/schema/bytes.js";
import { CassetteEventSchema, CassetteHeaderSchema, type CassetteEvent, type CassetteHeader } from "#src/schema/cassette.js";
import { PRIVATE_FILE_MODE, makePrivateDir, openAtomicFile, syncDir, writeAll, writeFailure, type AtomicFile } from "#src/util/atomic-file.js";
import type { HeldLock } from "#src/util/file-lock.js";
import { CASSETTE_FILE, FRAMES_DIR } from "./cassette.js";
import { frameRefsOf } from "./event-frames.js";
import type { FrameExt } from "./frame-ref.js";
import { frameFilesOf, isFrameFileName } from "./frame-signature.js";
import { syncFiles, writeFrame } from "./frame-store.js";
import { readCassetteSync } from "./reader.js";
import { checkRegularFile, isRealDir, lockCassette } from "./safe-files.js";

/** An event as handed to the writer: everything but `seq`, which the writer assigns. */
export type CassetteEventInput = CassetteEvent extends infer E ? (E extends unknown ? Omit<E, "seq"> : never) : never;

/** Appends events to a cassette, one write per line (docs/decisions/0001). */
export interface CassetteWriter {
  readonly dir: string;
  readonly file: string;
  /** The header on line 1 (the existing one when appending). */
  readonly header: CassetteHeader;
  /** Validates the event, writes it as one line in one checked write, and returns its seq. */
  append(event: CassetteEventInput): number;
  /** Stores bytes as a content-addressed frame (once) and returns its ref. */
  putFrame(bytes: Uint8Array, ext: FrameExt): FrameRef;
  /** Flushes and closes; a replacing writer (`force`) puts the new cassette in place now. */
  close(): void;
  /** Stops without keeping the new version: a replacing writer leaves the old cassette as it was; a new one is removed. */
  abort(): void;
  [Symbol.dispose](): void;
}

export interface OpenCassetteWriterOptions {
  dir: string;
  header: CassetteHeader;
  /** Add events to an existing cassette (its header is kept). */
  append?: boolean;
  /** Replace an existing cassette: the new one is written beside it and renamed over it on close. */
  force?: boolean;
  /** Run just before a replacing writer renames the new cassette in place (e.g. put the new probe.json). */
  beforeCommit?: () => void;
}

const CASSETTE_FIX = "Pass the directory that `cua-contract record --out DIR` wrote (it holds cassette.jsonl as a regular file).";

/**
 * Opens a cassette for appending events, under the cassette's lock (docs/cassettes.md, "Writing
 * safely"). A new cassette and `append` write each event as one checked write of one line, so a
 * crash (even SIGKILL) loses at most the event being written, and a failed write (a full disk) is
 * cut back to the last whole line and reported. `force` over an existing cassette writes the new
 * one to a temp file beside it and renames it over the old one on close: until then the old one is
 * untouched, and frames no event of the new one names are removed only after.
 */
export function openCassetteWriter(options: OpenCassetteWriterOptions): CassetteWriter {
  const dir = path.resolve(options.dir);
  const file = path.join(dir, CASSETTE_FILE);
  makePrivateDir(dir, "--out");
  const lock = lockCassette(dir);
  try {
    return openLocked({ ...options, dir, file, lock });
  } catch (error) {
    lock.release();
    throw error;
  }
}

function openLocked(o: OpenCassetteWriterOptions & { dir: string; file: string; lock: HeldLock }): CassetteWriter {
  const { dir, file } = o;
  const exists = checkRegularFile(file, { what: "cassette.jsonl", fix: CASSETTE_FIX, inside: dir }) === "file";
  if (exists && !o.append && !o.force) {
    throw new UserError("the output directory already holds a cassette", {
      code: "OUTPUT_EXISTS",
      file,
      field: "--out",
      fix: "Pass --append to add to it, --force to replace it, or choose another --out directory.",
    });
  }
  let header = CassetteHeaderSchema.parse(o.header);
  let seq = 0;
  let fd: number | undefined;
  let size = 0;
  let replacing: AtomicFile | undefined;
  const kept = new Set<string>();
  const lineOf = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`);
  if (exists && o.append) {
    const existing = readCassetteSync(dir, { frames: "skip" });
    header = existing.header;
    seq = existing.events.reduce((max, e) => Math.max(max, e.seq + 1), 0);
    try {
      fd = openSync(file, constants.O_RDWR | constants.O_APPEND);
      size = dropTornTail(fd);
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      throw writeFailure({ file, error, field: "--out" });
    }
  } else if (exists) {
    replacing = openAtomicFile({ file, field: "--out" });
    replacing.write(lineOf(header));
  } else {
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, PRIVATE_FILE_MODE);
      fchmodSync(fd, PRIVATE_FILE_MODE);
      const first = lineOf(header);
      writeAll(fd, first);
      size = first.length;
      syncDir(dir);
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      rmSync(file, { force: true });
      throw writeFailure({ file, error, field: "--out" });
    }
  }
  const created = !exists;
  let closed = false;
  const unsynced: string[] = [];
  const createdFrames: string[] = [];
  const writer: CassetteWriter = {
    dir,
    file,
    header,
    append(event) {
      if (closed) throw new Error(`cassette writer for ${file} is closed`);
      const full = CassetteEventSchema.parse({ ...event, seq });
      const line = lineOf(full);
      if (replacing) {
        replacing.write(line);
        for (const r of frameRefsOf(full)) kept.add(String(r.ref));
      } else {
        try {
          writeAll(fd!, line);
        } catch (error) {
          // a part of the line reached the file: cut it, so the next event does not glue onto it
          try {
            ftruncateSync(fd!, size);
          } catch {
            // the reader drops a torn last line with a warning
          }
          throw writeFailure({ file, error });
        }
        size += line.length;
      }
      return seq++;
    },
    putFrame(bytes, ext) {
      return writeFrame({
        dir,
        bytes,
        ext,
        sync: false,
        onWritten: (f) => {
          unsynced.push(f);
          createdFrames.push(f);
        },
      });
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        // frames first: the cassette that names them is flushed (or put in place) after them
        syncFiles(unsynced.splice(0));
        if (replacing) {
          o.beforeCommit?.();
          replacing.commit();
          removeUnkeptFrames(dir, kept);
        } else {
          try {
            fsyncSync(fd!);
          } catch {
            // a file system without fsync keeps what it has
          }
          closeSync(fd!);
        }
      } finally {
        o.lock.release();
      }
    },
    abort() {
      if (closed) return;
      closed = true;
      try {
        if (replacing) replacing.abort();
        else {
          closeSync(fd!);
          if (created) rmSync(file, { force: true });
        }
        // frames this writer stored (none the cassette had already): nothing names them now
        if (replacing || created) for (const f of createdFrames) rmSync(f, { force: true });
      } finally {
        o.lock.release();
      }
    },
    [Symbol.dispose]() {
      writer.close();
    },
  };
  return writer;
}

/**
 * After a cassette was replaced: removes the frames (and their signatures) of frames/ that no event
 * of the new one names. Only files named as frames are touched, and nothing in a frames/ that is a
 * link to a folder elsewhere (it may be shared).
 */
export function removeUnkeptFrames(dir: string, keep: Iterable<string>): { removed: number; shared: boolean } {
  const framesDir = path.join(dir, FRAMES_DIR);
  if (!isRealDir(framesDir)) return { removed: 0, shared: existsSync(framesDir) };
  const files = frameFilesOf(keep);
  let removed = 0;
  for (const name of readdirSync(framesDir)) {
    if (!isFrameFileName(name) || files.has(`${FRAMES_DIR}/${name}`)) continue;
    rmSync(path.join(framesDir, name), { force: true });
    removed += 1;
  }
  if (removed > 0) syncDir(framesDir);
  return { removed, shared: false };
}

// A torn last line (no newline) would glue itself to the next event: cut it before appending.
function dropTornTail(fd: number): number {
  const size = fstatSync(fd).size;
  if (size === 0) return 0;
  const tail = Buffer.alloc(Math.min(size, 1 << 16));
  let end = size;
  // look back for the last newline, a block at a time
  for (;;) {
    const start = Math.max(0, end - tail.length);
    const n = readSync(fd, tail, 0, end - start, start);
    if (end === size && tail[n - 1] === 0x0a) return size;
    const nl = tail.subarray(0, n).lastIndexOf(0x0a);
    if (nl >= 0) {
      ftruncateSync(fd, start + nl + 1);
      return start + nl + 1;
    }
    if (start === 0) {
      ftruncateSync(fd, 0);
      return 0;
    }
    end = start;
  }
}
