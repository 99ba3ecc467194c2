import { UserError } from "#src/errors.js";
import { closeSync, openSync, writeSync } from "node:fs";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";

/** A JSONL replay log written line by line as entries arrive (a crash keeps what was served). */
export function openJsonlLog(file: string): { write(entry: ReplayLogEntry): void; close(): void } {
  let fd: number;
  try {
    fd = openSync(file, "w", 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "EISDIR" ? "is a directory" : code === "ENOENT" ? "is in a folder that does not exist" : `cannot be written (${code ?? String(error)})`;
    throw new UserError(`the replay log ${file} ${why}`, {
      code: "USAGE",
      field: "--log",
      fix: "Name a file in an existing folder, e.g. --log replay.jsonl.",
      cause: error,
    });
  }
  let open = true;
  return {
    write(entry) {
      if (open) writeSync(fd, `${JSON.stringify(entry)}\n`);
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
