import { accessSync, constants } from "node:fs";
import path from "node:path";
import { UserError } from "../errors.js";

/** The program a shell command line starts (its first word), found on PATH or as a path; else a usage error naming --cmd. */
export function checkCommandExists(options: { command: string; env: NodeJS.ProcessEnv; cwd: string }): void {
  const first = options.command.trim().split(/\s+/)[0] ?? "";
  const program = first.replace(/^["']|["']$/g, "");
  if (!program) throw new UserError("the harness command is empty", { code: "USAGE", field: "--cmd", fix: 'Pass the harness command line, e.g. --cmd "python3 harness.py".' });
  const candidates = program.includes("/")
    ? [path.resolve(options.cwd, program)]
    : (options.env.PATH ?? "").split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, program));
  const found = candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!found) {
    throw new UserError(`the harness command ${JSON.stringify(program)} was not found${program.includes("/") ? "" : " on PATH"}`, {
      code: "USAGE",
      field: "--cmd",
      fix: "Check the spelling, install it, or give a path to an executable.",
    });
  }
}
