// What the crash and concurrency trials of the writers share: running the CLI as its own process
// (to kill it), and what a cassette must look like after a trial.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { readCassetteSync } from "#src/cassette/reader.js";
import { cliPath, repoRoot } from "../../helpers/run-cli.js";
import { runCliInProcess } from "../../helpers/run-cli-in-process.js";

export const DRIVER = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");

export const bytesOf = (dir: string) => (existsSync(path.join(dir, "cassette.jsonl")) ? readFileSync(path.join(dir, "cassette.jsonl")) : undefined);

/** Temp files, and a lock held by a live process: what a finished writer must not leave (a dead one's lock is taken over by the next). */
export const leftovers = (dir: string) => [
  ...readdirSync(dir).filter((n) => n.endsWith(".cua-tmp") || (n.endsWith(".lock") && lockHolderAlive(path.join(dir, n)))),
  ...(existsSync(path.join(dir, "frames")) ? readdirSync(path.join(dir, "frames")).filter((n) => n.endsWith(".cua-tmp")) : []),
];

function lockHolderAlive(file: string): boolean {
  try {
    process.kill((JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs the CLI as its own process; `killAfterMs` sends SIGKILL then. Resolves to the exit code or signal. */
export function spawnCli(args: string[], o: { killAfterMs?: number; env?: Record<string, string> } = {}) {
  return new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: repoRoot, env: { ...process.env, ...o.env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = o.killAfterMs !== undefined ? setTimeout(() => child.kill("SIGKILL"), o.killAfterMs) : undefined;
    child.on("exit", (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

/**
 * `inspect` in process: exit 0 and no warning about the file (no torn line, no bad seq), the number
 * of events it reads. What the driver answered is not in question here: the answer-health warnings
 * (every call of a tool failing the same way) describe the recorded calls, not the write.
 */
export async function inspectEvents(dir: string): Promise<number> {
  const r = await runCliInProcess(["inspect", dir, "--json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  const doc = JSON.parse(r.stdout) as { warnings: string[]; events: { total?: number } | number };
  expect(doc.warnings.filter((w) => !/Likely cause:/.test(w))).toEqual([]);
  return readCassetteSync(dir, { frames: "skip" }).events.length;
}
