import { accessSync, constants } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";

/** The program a shell command line starts (its first word), found on PATH or as a path; else a usage error naming --cmd. */
export function checkCommandExists(options: { command: string; env: NodeJS.ProcessEnv; cwd: string }): void {
  const first = options.command.trim().split(/\s+/)[0] ?? "";
  const program = first.replace(/^["']|["']$/g, "");
  if (!program)
    throw new UserError("the harness command is empty", {
      code: "USAGE",
      field: "--cmd",
      fix: 'Pass the harness command line, e.g. --cmd "python3 harness.py".',
    });
  const candidates = program.includes("/")
    ? [path.resolve(options.cwd, program)]
    : (options.env.PATH ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
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
  checkScriptExists({ ...options, program });
}

const INTERPRETERS = /^(python[\d.]*|node|nodejs|deno|bun|ruby|perl|php|bash|sh|dash|zsh)$/;
const SCRIPT = /\.(py|js|mjs|cjs|ts|rb|pl|php|sh)$/;

// "python3 nosuch.py" finds python3, then python3 exits 2 per scenario: that is bad input, not a
// harness failure. The script an interpreter is given must exist before anything runs.
function checkScriptExists(options: { command: string; cwd: string; program: string }): void {
  if (!INTERPRETERS.test(path.basename(options.program))) return;
  const words = options.command
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((w) => w.replace(/^["']|["']$/g, ""));
  const script = words.find((w) => !w.startsWith("-"));
  if (!script || !SCRIPT.test(script) || words.slice(0, words.indexOf(script)).some((w) => /^-(c|e|m|-eval|-input-type.*)$/.test(w))) return;
  const file = path.resolve(options.cwd, script);
  try {
    accessSync(file, constants.R_OK);
  } catch {
    throw new UserError(`the harness script ${JSON.stringify(script)} does not exist (${file})`, {
      code: "USAGE",
      field: "--cmd",
      fix: `Check the path; it is relative to the folder you run cua-contract in (${options.cwd}).`,
    });
  }
}
