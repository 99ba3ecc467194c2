import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import type { FrameRef } from "#src/schema/bytes.js";
import { FRAMES_DIR } from "./cassette.js";
import { frameRefFor, parseFrameRef, sha256Hex, type FrameExt } from "./frame-ref.js";

/**
 * Writes a frame once (content-addressed); a temp file + rename means a crash never leaves half a
 * frame. `sync: false` leaves the flush to the disk for later (`syncFiles` at close): a killed
 * process loses nothing the kernel already has, so a recording pays no fsync per call.
 */
export function writeFrame(options: { dir: string; bytes: Uint8Array; ext: FrameExt; sync?: boolean; onWritten?: (file: string) => void }): FrameRef {
  const ref = frameRefFor(options.bytes, options.ext);
  const target = path.join(options.dir, ref);
  if (existsSync(target)) return ref;
  mkdirSync(path.join(options.dir, FRAMES_DIR), { recursive: true, mode: 0o700 });
  const tmp = `${target}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, options.bytes);
    if (options.sync !== false) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, target);
  options.onWritten?.(target);
  return ref;
}

/** Flushes files (and their folders) to the disk once, e.g. the frames a recording wrote, when it closes. */
export function syncFiles(files: Iterable<string>): void {
  const dirs = new Set<string>();
  for (const file of files) {
    dirs.add(path.dirname(file));
    try {
      const fd = openSync(file, "r");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // a file removed since is nothing to flush
    }
  }
  for (const dir of dirs) {
    try {
      const fd = openSync(dir, "r");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // some file systems do not sync folders
    }
  }
}

/** Reads a frame and checks that its bytes hash to the name; throws a UserError naming the fix otherwise. */
export function loadFrame(options: { dir: string; ref: string; where?: string }): Buffer {
  const parsed = parseFrameRef(options.ref);
  const where = options.where ?? path.join(options.dir, "cassette.jsonl");
  if (!parsed) {
    throw new UserError(`frame reference "${options.ref}" is not frames/<sha256>.<png|jpg> (path segments are not allowed)`, {
      code: "BAD_FRAME",
      file: where,
      fix: "Re-record the cassette, or fix the reference by hand; cua-contract never reads files outside frames/.",
    });
  }
  const file = path.join(options.dir, options.ref);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new UserError(`frame ${options.ref} is missing`, {
      code: "BAD_FRAME",
      file: where,
      fix: `Copy ${options.ref} back beside cassette.jsonl, or re-record the cassette.`,
    });
  }
  const actual = sha256Hex(bytes);
  if (actual !== parsed.sha256) {
    throw new UserError(`frame ${options.ref} does not match its hash (its content hashes to ${actual.slice(0, 12)}…)`, {
      code: "BAD_FRAME",
      file,
      fix: "The frame was altered or damaged: restore it from the original recording, or re-record the cassette.",
    });
  }
  return bytes;
}
