import { closeSync, openSync, writeSync } from "node:fs";
import type { ReplayLogEntry } from "../schema/replay-log.js";

/** A JSONL replay log written line by line as entries arrive (a crash keeps what was served). */
export function openJsonlLog(file: string): { write(entry: ReplayLogEntry): void; close(): void } {
  const fd = openSync(file, "w", 0o600);
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
