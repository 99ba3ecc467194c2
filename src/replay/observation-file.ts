import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ObservationSource } from "./session.js";

/** The variable that names the file a harness appends a line to when it looks by its own means. */
export const OBSERVE_ENV = "CUA_CONTRACT_OBSERVE";

/** The most a harness may declare between two calls; anything past it is read at the next call. */
const READ_CHUNK = 64 * 1024;

export interface ObservationFile extends ObservationSource {
  /** The file's path, handed to the harness as `CUA_CONTRACT_OBSERVE`. */
  readonly path: string;
  /** Reads what is left, then removes the file and its private folder. */
  [Symbol.dispose](): void;
}

/**
 * A private, empty file (0600 in a 0700 folder) the harness appends lines to: one line, one look
 * (`echo "read the board" >> "$CUA_CONTRACT_OBSERVE"`). The replay reads the lines that are
 * complete before it numbers each request: the harness wrote its line before it sent the request,
 * so the look stands before it.
 */
export function createObservationFile(): ObservationFile {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cua-contract-observe-"));
  return observationReader({ file: path.join(dir, "observations"), remove: dir });
}

/**
 * A file the user names (`serve --observe FILE`, for harnesses the replay does not start): created
 * 0600 when missing, read from its current end (lines already there are not this run's), kept.
 */
export function openObservationFile(file: string): ObservationFile {
  return observationReader({ file });
}

function observationReader(options: { file: string; remove?: string }): ObservationFile {
  const file = options.file;
  const fd = openSync(file, "a+", 0o600);
  let offset = fstatSync(fd).size;
  let partial = "";
  let closed = false;
  const buffer = Buffer.alloc(READ_CHUNK);
  return {
    path: file,
    drain() {
      if (closed) return [];
      let text = partial;
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, offset);
        if (read === 0) break;
        offset += read;
        text += buffer.toString("utf8", 0, read);
      }
      const lines = text.split("\n");
      partial = lines.pop() ?? "";
      return lines.map((l) => l.replace(/\r$/, "")).filter((l) => l.trim() !== "");
    },
    [Symbol.dispose]() {
      if (closed) return;
      closed = true;
      closeSync(fd);
      if (options.remove) rmSync(options.remove, { recursive: true, force: true });
    },
  };
}
