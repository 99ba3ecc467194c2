import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import type { FrameRef } from "#src/schema/bytes.js";
import { CassetteEventSchema, CassetteHeaderSchema, type CassetteEvent, type CassetteHeader } from "#src/schema/cassette.js";
import { CASSETTE_FILE, FRAMES_DIR, PROBE_FILE } from "./cassette.js";
import type { FrameExt } from "./frame-ref.js";
import { syncFiles, writeFrame } from "./frame-store.js";
import { readCassetteSync } from "./reader.js";

/** An event as handed to the writer: everything but `seq`, which the writer assigns. */
export type CassetteEventInput = CassetteEvent extends infer E ? (E extends unknown ? Omit<E, "seq"> : never) : never;

export interface CassetteWriter {
  readonly dir: string;
  readonly file: string;
  /** The header on line 1 (the existing one when appending). */
  readonly header: CassetteHeader;
  /** Validates the event, writes it as one line in one write, and returns its seq. */
  append(event: CassetteEventInput): number;
  /** Stores bytes as a content-addressed frame (once) and returns its ref. */
  putFrame(bytes: Uint8Array, ext: FrameExt): FrameRef;
  close(): void;
  [Symbol.dispose](): void;
}

export interface OpenCassetteWriterOptions {
  dir: string;
  header: CassetteHeader;
  /** Add events to an existing cassette (its header is kept). */
  append?: boolean;
  /** Replace an existing cassette. */
  force?: boolean;
}

/**
 * Opens a cassette for appending events. Each event is one `write` of one line, so a crash (even
 * SIGKILL) loses at most the event being written; the reader reports a torn last line as a warning.
 */
export function openCassetteWriter(options: OpenCassetteWriterOptions): CassetteWriter {
  const dir = path.resolve(options.dir);
  const file = path.join(dir, CASSETTE_FILE);
  const exists = existsSync(file);
  if (exists && !options.append && !options.force) {
    throw new UserError("the output directory already holds a cassette", {
      code: "OUTPUT_EXISTS",
      file,
      field: "--out",
      fix: "Pass --append to add to it, --force to replace it, or choose another --out directory.",
    });
  }
  mkdirSync(dir, { recursive: true });
  let header = CassetteHeaderSchema.parse(options.header);
  let seq = 0;
  let fd: number;
  if (exists && options.append) {
    const existing = readCassetteSync(dir, { frames: "skip" });
    header = existing.header;
    seq = existing.events.reduce((max, e) => Math.max(max, e.seq + 1), 0);
    fd = openSync(file, "r+");
    dropTornTail(fd, readFileSync(file));
    closeSync(fd);
    fd = openSync(file, "a");
  } else {
    if (exists) {
      rmSync(path.join(dir, FRAMES_DIR), { recursive: true, force: true });
      rmSync(path.join(dir, PROBE_FILE), { force: true });
    }
    fd = openSync(file, "w");
    writeSync(fd, `${JSON.stringify(header)}\n`);
  }
  let closed = false;
  const unsynced: string[] = [];
  const writer: CassetteWriter = {
    dir,
    file,
    header,
    append(event) {
      if (closed) throw new Error(`cassette writer for ${file} is closed`);
      const full = CassetteEventSchema.parse({ ...event, seq });
      writeSync(fd, `${JSON.stringify(full)}\n`);
      return seq++;
    },
    putFrame(bytes, ext) {
      return writeFrame({ dir, bytes, ext, sync: false, onWritten: (f) => unsynced.push(f) });
    },
    close() {
      if (closed) return;
      closed = true;
      // One flush at the end instead of one per frame: a killed writer loses nothing the kernel has.
      try {
        fsyncSync(fd);
      } catch {
        // a file system without fsync (a pipe, some network mounts) keeps what it has
      }
      closeSync(fd);
      syncFiles(unsynced.splice(0));
    },
    [Symbol.dispose]() {
      writer.close();
    },
  };
  return writer;
}

// A torn last line (no newline) would glue itself to the next event: cut it before appending.
function dropTornTail(fd: number, bytes: Buffer): void {
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return;
  const lastNewline = bytes.lastIndexOf(0x0a);
  ftruncateSync(fd, lastNewline + 1);
}
