import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";

/**
 * How this process was started, as a command a user can paste: `npx cua-contract` for an installed
 * package run by npx/npm exec, `cua-contract` when that name on PATH is this very file, else `node <path to the bin>`
 * (relative to the working directory when the two share a folder at most two levels up).
 */
export function toolInvocation(options: { script?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const script = options.script ?? process.argv[1];
  if (!script) return "npx cua-contract";
  const real = realOrSelf(script);
  // npm exec's variables reach every process below it, so only a bin installed under node_modules counts
  if (env.npm_command === "exec" && real.split(path.sep).includes("node_modules")) return "npx cua-contract";
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, "cua-contract");
    if (existsSync(candidate) && realOrSelf(candidate) === real) return "cua-contract";
  }
  return `node ${shellQuote(shownPath(script, cwd))}`;
}

/** `KEY=VALUE` pairs from `--env`, checked; the fix names the flag. */
export function parseEnvPairs(values: readonly unknown[]): [string, string][] {
  return values.map((v) => {
    const text = String(v);
    const eq = text.indexOf("=");
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(text.slice(0, eq))) {
      throw new UserError(`--env takes KEY=VALUE, got ${JSON.stringify(text)}`, {
        code: "USAGE",
        field: "--env",
        fix: "Pass e.g. --env HARNESS_MODE=strict (repeatable).",
      });
    }
    return [text.slice(0, eq), text.slice(eq + 1)];
  });
}

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

function shownPath(script: string, cwd: string): string {
  const rel = path.relative(cwd, script);
  if (path.isAbsolute(rel)) return script;
  const ups = rel.split(path.sep).filter((s) => s === "..").length;
  const common = path.resolve(cwd, ...Array<string>(ups).fill(".."));
  return ups <= 2 && common !== path.parse(common).root ? rel : path.resolve(script);
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}
