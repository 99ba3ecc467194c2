import { closeSync, openSync, readSync } from "node:fs";
import { constants } from "node:buffer";
import { UserError } from "#src/errors.js";

export interface FileLine {
  /** 1-based line number. */
  line: number;
  text: string;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** Bytes of the line, without its newline. */
  bytes: number;
  /** With `raw: true`, the line's bytes (without its newline), valid only until the next line is read. */
  raw?: Buffer;
}

const CHUNK = 1 << 20;

/**
 * The lines of a file, one at a time, read in 1 MiB chunks: memory holds one line, whatever the
 * file's size. A final newline ends the last line (no empty line after it). A line longer than
 * `maxLineBytes` (default: the longest string this Node can hold) is an error naming its number.
 * Opening or reading failures are errors that say which (missing, a directory, unreadable).
 */
export function* readLines(options: { file: string; what: string; fix: string; maxLineBytes?: number; raw?: boolean }): Generator<FileLine> {
  const { file } = options;
  const maxLineBytes = options.maxLineBytes ?? constants.MAX_STRING_LENGTH;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw readFailure(options, error);
  }
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let line = 1;
    let offset = 0;
    let position = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, CHUNK, position);
      } catch (error) {
        throw readFailure(options, error);
      }
      if (n === 0) break;
      position += n;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl < 0 || nl >= n) break;
        const bytes = pendingBytes + (nl - start);
        if (bytes > maxLineBytes) throw tooLarge(options, line, bytes, maxLineBytes);
        const whole = pending.length === 0 ? undefined : Buffer.concat([...pending, chunk.subarray(start, nl)]);
        const text = whole ? whole.toString("utf8") : chunk.toString("utf8", start, nl);
        pending = [];
        pendingBytes = 0;
        yield { line, text, offset, bytes, ...(options.raw ? { raw: whole ?? chunk.subarray(start, nl) } : {}) };
        line++;
        offset += bytes + 1;
        start = nl + 1;
      }
      if (start < n) {
        pendingBytes += n - start;
        if (pendingBytes > maxLineBytes) throw tooLarge(options, line, pendingBytes, maxLineBytes);
        pending.push(Buffer.from(chunk.subarray(start, n)));
      }
    }
    if (pendingBytes > 0) {
      const whole = Buffer.concat(pending);
      yield { line, text: whole.toString("utf8"), offset, bytes: pendingBytes, ...(options.raw ? { raw: whole } : {}) };
    }
  } finally {
    closeSync(fd);
  }
}

function tooLarge(options: { file: string; what: string }, line: number, bytes: number, max: number): UserError {
  return new UserError(`line ${line} of ${options.what} is too large to read (over ${max} bytes; at least ${bytes})`, {
    code: "BAD_CASSETTE",
    file: options.file,
    line,
    fix: "A line this long was not written by cua-contract; cut the line out by hand, or re-record.",
  });
}

function readFailure(options: { file: string; what: string; fix: string }, error: unknown): UserError {
  const code = (error as { code?: unknown } | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  const problem =
    code === "ENOENT"
      ? `${options.what} is missing`
      : code === "EISDIR"
        ? `${options.what} is a directory, not a file`
        : code === "EACCES" || code === "EPERM"
          ? `${options.what} cannot be read (permission denied)`
          : `${options.what} cannot be read (${typeof code === "string" ? code : detail})`;
  const fix =
    code === "ENOENT" || code === "EISDIR"
      ? options.fix
      : code === "EACCES" || code === "EPERM"
        ? "Fix the file's permissions (it must be readable by you)."
        : "Check the disk and the file; copy the cassette again from where it was recorded.";
  return new UserError(problem, { code: "BAD_CASSETTE", file: options.file, fix, cause: error });
}
