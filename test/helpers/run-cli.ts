import { execa, type Options } from "execa";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const cliPath = fileURLToPath(new URL("../../bin/cua-contract.js", import.meta.url));

/** The options a CLI run may set; output stays text so tests can compare strings. */
export type CliRunOptions = Pick<Options, "cwd" | "env" | "extendEnv" | "input" | "timeout" | "cancelSignal">;

/** Runs the built CLI (never throws on a non-zero exit). */
export function runCli(args: string[], options: CliRunOptions = {}) {
  return execa(process.execPath, [cliPath, ...args], { reject: false, cwd: repoRoot, ...options });
}
