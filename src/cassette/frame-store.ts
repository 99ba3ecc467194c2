import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import type { FrameRef } from "#src/schema/bytes.js";
import { FRAMES_DIR } from "./cassette.js";
import { checkRegularFile, readRegularFile } from "./safe-files.js";
import { makePrivateDir, PRIVATE_FILE_MODE, tempNameFor, writeAll, writeFailure } from "#src/util/atomic-file.js";
import { frameRefFor, parseFrameRef, sha256Hex, type FrameExt } from "./frame-ref.js";

/**
 * Writes a frame once (content-addressed): the bytes go to a temp file beside it with checked writes,
 * are read back and hashed, and only then get the frame's name, so a frame under its name always
 * has the content its name says. A frame already stored under that name is reused only when its
 * content is right (a damaged one is written again). `sync: false` leaves the flush to the disk for
 * later (`syncFiles` at close): a killed process loses nothing the kernel already has.
 */
export function writeFrame(options: { dir: string; bytes: Uint8Array; ext: FrameExt; sync?: boolean; onWritten?: (file: string) => void }): FrameRef {
  const ref = frameRefFor(options.bytes, options.ext);
  const target = path.join(options.dir, ref);
  if (existingFrameIsGood(target, ref)) return ref;
  const framesDir = path.join(options.dir, FRAMES_DIR);
  makePrivateDir(framesDir);
  const tmp = tempNameFor(target);
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, PRIVATE_FILE_MODE);
    try {
      fchmodSync(fd, PRIVATE_FILE_MODE);
      writeAll(fd, options.bytes);
      if (options.sync !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const written = sha256Hex(readFileSync(tmp));
    if (written !== parseFrameRef(ref)!.sha256) throw new Error(`the bytes read back hash to ${written.slice(0, 12)}…, not to the frame's name`);
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw writeFailure({ file: target, error });
  }
  verified.add(target);
  options.onWritten?.(target);
  return ref;
}

// Frames this process has checked (or written): a recording that stores one image many times hashes it once.
const verified = new Set<string>();

/** Whether a frame is stored under its name with the right content (a regular file whose bytes hash to the name). */
export function existingFrameIsGood(file: string, ref: string): boolean {
  if (verified.has(file)) return true;
  const parsed = parseFrameRef(ref);
  if (!parsed) return false;
  try {
    if (!lstatSync(file).isFile()) return false;
    if (sha256Hex(readFileSync(file)) !== parsed.sha256) return false;
  } catch {
    return false;
  }
  verified.add(file);
  return true;
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

const FRAME_FIX = "A frame must be a regular file (or a link to one) holding the image: restore it from the original recording, or re-record the cassette.";

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
  checkRegularFile(file, { what: `frame ${options.ref}`, fix: FRAME_FIX, code: "BAD_FRAME" });
  try {
    bytes = readRegularFile(file, { what: `frame ${options.ref}`, fix: FRAME_FIX, code: "BAD_FRAME" });
  } catch (error) {
    if (error instanceof UserError) throw error;
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
