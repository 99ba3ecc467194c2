/**
 * Errors for bad input and unavailable drivers. The CLI prints `message` (no stack) and exits
 * with `exitCode`: 2 for usage or bad input, 3 when the driver cannot be reached at all.
 */
export type UserErrorCode =
  | "USAGE"
  | "BAD_CASSETTE"
  | "BAD_FRAME"
  | "BAD_FAULT_PLAN"
  | "BAD_CONTRACT"
  | "BAD_SCENARIO"
  | "BAD_SNAPSHOT"
  | "BAD_TRAJECTORY"
  | "BAD_INPUT"
  | "OUTPUT_EXISTS"
  | "CANNOT_WRITE"
  | "LOCKED"
  | "DRIVER_NOT_FOUND"
  | "DRIVER_UNAVAILABLE";

export interface UserErrorOptions {
  code: UserErrorCode;
  /** The file the problem is in, if any. */
  file?: string;
  /** 1-based line in `file`. */
  line?: number;
  /** The field (JSON path or flag) at fault. */
  field?: string;
  /** What the user should do about it. */
  fix?: string;
  exitCode?: 2 | 3;
  cause?: unknown;
}

/**
 * A mistake in what the user gave (a file, a field, a flag), with the fix: the command line prints
 * it and exits 2.
 */
export class UserError extends Error {
  readonly code: UserErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;
  readonly fix: string | undefined;
  readonly exitCode: 2 | 3;

  constructor(problem: string, options: UserErrorOptions) {
    super(formatUserError(problem, options), { cause: options.cause });
    this.name = "UserError";
    this.code = options.code;
    this.file = options.file;
    this.line = options.line;
    this.field = options.field;
    this.fix = options.fix;
    this.exitCode = options.exitCode ?? (options.code === "DRIVER_UNAVAILABLE" ? 3 : 2);
  }
}

/** `file:line: field: problem. fix` — the one-line shape every user error takes. */
export function formatUserError(problem: string, options: Omit<UserErrorOptions, "code">): string {
  const where = options.file ? `${options.file}${options.line ? `:${options.line}` : ""}: ` : "";
  // "--seed must be…" says the field twice; a problem that starts with it names it already.
  const field = options.field && !problem.startsWith(options.field) ? `${options.field}: ` : "";
  const fix = options.fix ? ` ${options.fix}` : "";
  const sentence = /[.!?]$/.test(problem) ? problem : `${problem}.`;
  return `${where}${field}${sentence}${fix}`;
}

/** Whether an error is a `UserError` (a mistake in the input, not a failure of the toolkit). */
export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

const SYSTEM_PROBLEMS: Record<string, { problem: string; fix: string }> = {
  ENOENT: { problem: "no such file or directory", fix: "Check the path; the folder it names must exist." },
  EISDIR: { problem: "is a directory, not a file", fix: "Name a file (inside the directory, if you meant that)." },
  ENOTDIR: { problem: "a part of the path is a file, not a directory", fix: "Check the path." },
  EEXIST: { problem: "already exists and is in the way", fix: "Choose another path, or move the existing one aside." },
  EACCES: { problem: "permission denied", fix: "Choose a path you may read or write, or fix its permissions." },
  EPERM: { problem: "operation not permitted", fix: "Choose a path you may read or write, or fix its permissions." },
  EROFS: { problem: "read-only file system", fix: "Choose a writable path." },
  ENOSPC: { problem: "no space left on the device", fix: "Free some space or choose another disk." },
  EDQUOT: { problem: "disk quota exceeded", fix: "Free some space or choose another disk." },
  ELOOP: { problem: "too many symbolic links (or a symbolic link where a file was expected)", fix: "Replace the link by the file itself." },
};

/** What a file-system failure means for the user: its path, the problem and the fix; undefined for other errors. */
export function describeSystemError(error: unknown): { path: string; problem: string; fix: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path, syscall } = error as Error & { code?: unknown; path?: unknown; syscall?: unknown };
  const known = typeof code === "string" ? SYSTEM_PROBLEMS[code] : undefined;
  if (!known || typeof path !== "string") return undefined;
  const operation = typeof syscall === "string" ? ` (${syscall})` : "";
  return { path, problem: `${known.problem}${operation}`, fix: known.fix };
}

/**
 * A file-system failure that escaped a command (an output path that is a directory, a missing
 * parent folder) as a UserError naming the path, so the CLI prints one line instead of a stack.
 */
export function userErrorFromSystemError(error: unknown): UserError | undefined {
  const described = describeSystemError(error);
  if (!described) return undefined;
  return new UserError(described.problem, { code: "BAD_INPUT", file: described.path, fix: described.fix, cause: error });
}
