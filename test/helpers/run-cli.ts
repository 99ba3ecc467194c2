import { execa, type Options } from "execa";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const cliPath = fileURLToPath(new URL("../../bin/cua-contract.js", import.meta.url));

/** Runs the built CLI (never throws on a non-zero exit). */
export async function runCli(args: string[], options: Options = {}) {
  return execa(process.execPath, [cliPath, ...args], { reject: false, cwd: repoRoot, ...options });
}
