import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { describeSystemError, UserError } from "#src/errors.js";

/** New data files are private: read and write for their owner only (docs/cassettes.md, "File modes"). */
export const PRIVATE_FILE_MODE = 0o600;
/** New data folders are private: only their owner may list or enter them. */
export const PRIVATE_DIR_MODE = 0o700;

/** The suffix of every temp file a writer makes beside its target; `cleanStaleTemps` looks for it. */
export const TEMP_SUFFIX = ".cua-tmp";

const BUFFER_BYTES = 1 << 20;
let tempCounter = 0;

/** `DIR/.NAME.<pid>-<n>.cua-tmp`: hidden, beside the target (same file system, so the rename is atomic), naming its writer. */
export function tempNameFor(target: string): string {
  tempCounter += 1;
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${tempCounter}${TEMP_SUFFIX}`);
}

/**
 * A file being replaced: bytes go to a temp file beside the target, every write is checked (a short
 * write or a full disk is an error, never ignored), and `commit` flushes the temp file, renames it
 * over the target and flushes the folder. Until `commit` returns the target is untouched; after it,
 * the target is the complete new file. `abort` (or any failed write) removes the temp file.
 */
export interface AtomicFile {
  readonly file: string;
  readonly temp: string;
  write(data: string | Uint8Array): void;
  /** Bytes written so far. */
  readonly bytes: number;
  commit(): void;
  abort(): void;
}

export interface OpenAtomicFileOptions {
  file: string;
  /** Mode of a new file (default 0600). A file that exists keeps its own mode. */
  mode?: number;
  /** The flag or field that named the file, for error messages. */
  field?: string;
  /** A new file gets 0666 narrowed by the umask (an output to share, e.g. a report) instead of `mode`. */
  umask?: boolean;
}

export function openAtomicFile(options: OpenAtomicFileOptions): AtomicFile {
  const file = path.resolve(options.file);
  const fail = (error: unknown): never => {
    throw writeFailure({ file, error, ...(options.field ? { field: options.field } : {}) });
  };
  const kept = existingMode(file);
  const byUmask = options.umask === true && kept === undefined;
  const mode = kept ?? options.mode ?? PRIVATE_FILE_MODE;
  const temp = tempNameFor(file);
  let fd: number;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, byUmask ? 0o666 : mode);
    // the umask does not narrow a mode chosen on purpose (or kept from the old file), nor widen it
    if (!byUmask) fchmodSync(fd, mode);
  } catch (error) {
    return fail(error);
  }
  let open = true;
  let done = false;
  let bytes = 0;
  const buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  let used = 0;
  const drop = () => {
    if (open) {
      open = false;
      try {
        closeSync(fd);
      } catch {
        // the descriptor is gone either way
      }
    }
    rmSync(temp, { force: true });
  };
  const guarded = <T>(action: () => T): T => {
    try {
      return action();
    } catch (error) {
      drop();
      done = true;
      return fail(error);
    }
  };
  const flush = () => {
    if (used === 0) return;
    writeAll(fd, buffer.subarray(0, used));
    used = 0;
  };
  return {
    file,
    temp,
    get bytes() {
      return bytes;
    },
    write(data) {
      if (done) throw new Error(`${file}: write after commit or abort`);
      const chunk = typeof data === "string" ? Buffer.from(data) : data;
      bytes += chunk.length;
      guarded(() => {
        if (used + chunk.length <= BUFFER_BYTES) {
          buffer.set(chunk, used);
          used += chunk.length;
          return;
        }
        flush();
        if (chunk.length >= BUFFER_BYTES) writeAll(fd, chunk);
        else {
          buffer.set(chunk, 0);
          used = chunk.length;
        }
      });
    },
    commit() {
      if (done) throw new Error(`${file}: commit after commit or abort`);
      guarded(() => {
        flush();
        fsyncSync(fd);
        closeSync(fd);
        open = false;
        killPoint("before-rename", file);
        renameSync(temp, file);
      });
      killPoint("after-rename", file);
      done = true;
      syncDir(path.dirname(file));
    },
    abort() {
      if (done) return;
      done = true;
      drop();
    },
  };
}

/**
 * `CUA_CONTRACT_KILL_AT=before-rename|after-rename` makes a writer kill itself (SIGKILL) at that
 * point of its commit: how the crash tests hit the worst moment every time (docs/cassettes.md).
 * `CUA_CONTRACT_KILL_AT_FILE=NAME` narrows it to commits of a file of that name.
 */
function killPoint(point: "before-rename" | "after-rename", file: string): void {
  if (process.env.CUA_CONTRACT_KILL_AT !== point) return;
  const only = process.env.CUA_CONTRACT_KILL_AT_FILE;
  if (only && path.basename(file) !== only) return;
  process.kill(process.pid, "SIGKILL");
}

/** Writes a whole file the atomic way (temp beside, checked writes, fsync, rename, fsync folder). */
export function writeFileAtomic(options: OpenAtomicFileOptions & { data: string | Uint8Array }): void {
  const out = openAtomicFile(options);
  out.write(options.data);
  out.commit();
}

/** Writes every byte or throws: a short write is retried for the rest, and a write of nothing is a full disk. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const n = writeSync(fd, bytes, offset, bytes.length - offset);
    if (n <= 0) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });
    offset += n;
  }
}

/** Flushes a folder's entries (a rename or a new file in it) to the disk; a file system that cannot is left be. */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // some file systems do not sync folders
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The permission bits of a regular file that exists (kept when it is rewritten), else undefined. */
export function existingMode(file: string): number | undefined {
  try {
    const st = lstatSync(file);
    return st.isFile() ? st.mode & 0o777 : undefined;
  } catch {
    return undefined;
  }
}

/** Creates a folder (and its parents) private to its owner; an existing folder keeps its mode. */
export function makePrivateDir(dir: string, field?: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (error) {
    throw writeFailure({ file: dir, error, ...(field ? { field } : {}) });
  }
}

const TEMP_PATTERN = /\.(\d+)-\d+\.cua-tmp$/;
const LEGACY_TEMP = /\.(?:prune|record-missing)-(\d+)\.tmp$/;

/**
 * Removes the temp files that writers killed before their commit left in `dir` (a writer names its
 * temp files with its pid; those of a process still alive are left alone). Returns what it removed.
 */
export function cleanStaleTemps(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_PATTERN.exec(name) ?? LEGACY_TEMP.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const file = path.join(dir, name);
    try {
      if (!lstatSync(file).isFile()) continue;
      rmSync(file, { force: true });
      removed.push(file);
    } catch {
      // gone already
    }
  }
  return removed;
}

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A failed write as a UserError naming the file, what happened and the fix (exit 2). */
export function writeFailure(options: { file: string; error: unknown; field?: string }): UserError {
  const code = (options.error as { code?: unknown } | undefined)?.code;
  // a failed write names no path of its own: the problem is described for the file being written
  const described = describeSystemError(
    options.error instanceof Error && typeof (options.error as { path?: unknown }).path !== "string"
      ? Object.assign(new Error(options.error.message), { code, path: options.file, syscall: (options.error as { syscall?: unknown }).syscall })
      : options.error,
  );
  const problem = described
    ? `cannot write ${options.file}: ${described.problem}`
    : `cannot write ${options.file}: ${options.error instanceof Error ? options.error.message : String(options.error)}`;
  const fix =
    code === "ENOSPC" || code === "EDQUOT"
      ? "Free some space on that disk (or choose another folder) and run the command again; the earlier version of the file is unchanged."
      : code === "EROFS"
        ? "The folder is on a read-only file system: choose a writable folder; nothing was changed."
        : (described?.fix ?? "Check the disk and the folder's permissions; the earlier version of the file is unchanged.");
  return new UserError(problem, {
    code: "CANNOT_WRITE",
    file: options.file,
    ...(options.field ? { field: options.field } : {}),
    fix,
    cause: options.error,
  });
}
