import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { describeSystemError, isUserError, UserError } from "#src/errors.js";
import { writeFileAtomic } from "#src/util/atomic-file.js";

/**
 * Writes one output file a flag named (`--junit`, `--save`, `--out`): creates its folder, and turns
 * a path that is a directory or cannot be written into a UserError naming the flag and the path.
 * The file is replaced atomically (docs/cassettes.md, "Writing safely"); a new one gets the
 * umask's mode (a report is shared like any other output), an existing one keeps its own.
 */
export function writeOutputFile(options: { file: string; flag: string; text: string | Uint8Array }): string {
  const file = path.resolve(options.file);
  if (isDirectory(file)) {
    throw new UserError(`${options.file} is a directory`, {
      code: "USAGE",
      field: options.flag,
      fix: `Name a file to write, e.g. ${options.flag} ${path.join(options.file, `out${extensionOf(options.flag)}`)}.`,
    });
  }
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // beside, checked, renamed: a crash or a full disk leaves the earlier file, never half of one
    writeFileAtomic({ file, data: options.text, mode: 0o644, field: options.flag, umask: true });
  } catch (error) {
    if (isUserError(error)) throw error;
    const described = describeSystemError(error);
    if (!described) throw error;
    throw new UserError(`cannot write ${options.file}: ${described.path} ${described.problem}`, {
      code: "USAGE",
      field: options.flag,
      fix: described.fix,
      cause: error,
    });
  }
  return file;
}

const extensionOf = (flag: string) => (flag === "--junit" ? ".xml" : flag === "--out" || flag === "--report" ? ".html" : ".json");

function isDirectory(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false; // ENOTDIR and the like: the write below names the problem
  }
}
