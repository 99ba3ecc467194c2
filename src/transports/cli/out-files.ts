import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";

/** Flags whose value is a file the driver writes; the file is stored as a frame. */
const OUT_FILE_FLAGS = ["--screenshot-out-file"] as const;

export function outFilesOf(argv: string[], cwd: string) {
  const parsed = parseDriverArgv(argv);
  const out: Array<{ flag: string; given: string; absolute: string; before: string | undefined }> = [];
  for (const flag of OUT_FILE_FLAGS) {
    const value = parsed.flags.get(flag);
    if (typeof value === "string" && value) {
      const absolute = path.resolve(cwd || ".", value);
      out.push({ flag, given: value, absolute, before: fileStamp(absolute) });
    }
  }
  return out;
}

// Only a file the driver (re)wrote during this call counts; a stale file from before is not its output.
function fileStamp(file: string): string | undefined {
  try {
    const st = statSync(file, { bigint: true });
    return st.isFile() ? `${st.mtimeNs}:${st.ctimeNs}:${st.size}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

export function readIfWritten(file: string, before: string | undefined): Buffer | undefined {
  const after = fileStamp(file);
  if (after === undefined || after === before) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
