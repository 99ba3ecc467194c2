/** A Node file-system error worded like Rust's `io::Error` Display (`<strerror> (os error N)`). */
import os from "node:os";

const STRERROR: Record<string, string> = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EROFS: "Read-only file system",
  ENOSPC: "No space left on device",
  EEXIST: "File exists",
};

export function rustIoErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const errno = code ? (os.constants.errno as Record<string, number>)[code] : undefined;
  if (code && errno !== undefined) return `${STRERROR[code] ?? code} (os error ${errno})`;
  return error instanceof Error ? error.message : String(error);
}
