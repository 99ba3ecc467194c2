import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";

/**
 * Resolves the real driver: `--driver PATH` (a path, or a name looked up on PATH), else
 * `cua-driver` on the PATH the user had. Throws a UserError when it is missing or not executable.
 */
export function findDriver(options: { driver?: string; path?: string; cwd?: string }): string {
  const wanted = options.driver ?? "cua-driver";
  const searchPath = options.path ?? process.env.PATH ?? "";
  const fix = options.driver ? "Pass --driver with the path of an executable cua-driver." : "Install cua-driver (it must be on PATH) or pass --driver PATH.";
  if (wanted.includes(path.sep)) {
    const abs = path.resolve(options.cwd ?? process.cwd(), wanted);
    checkExecutable(abs, fix);
    return abs;
  }
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, wanted);
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new UserError(`driver "${wanted}" was not found on PATH`, { code: "DRIVER_NOT_FOUND", field: "--driver", fix });
}

function checkExecutable(file: string, fix: string): void {
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new UserError(`driver ${file} does not exist`, { code: "DRIVER_NOT_FOUND", field: "--driver", fix });
  }
  if (!isFile || !isExecutableFile(file)) {
    throw new UserError(`driver ${file} is not an executable file`, {
      code: "DRIVER_NOT_FOUND",
      field: "--driver",
      fix: `Make it executable (chmod +x ${file}) or pass --driver with another path.`,
    });
  }
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
