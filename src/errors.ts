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
  const field = options.field ? `${options.field}: ` : "";
  const fix = options.fix ? ` ${options.fix}` : "";
  const sentence = /[.!?]$/.test(problem) ? problem : `${problem}.`;
  return `${where}${field}${sentence}${fix}`;
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
