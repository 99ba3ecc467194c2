// A result made once per vitest process and shared by the test files that need it, whichever worker
// runs them: the first file to ask makes it into the run's private directory (test/global-setup.ts),
// the others wait for it. For what is costly to make and the same for every file, such as a fresh
// recording from the real runtime on a throwaway desktop. A watch session keeps the result (and a
// failure to make it) until vitest is restarted.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";

const DONE = "made";
const FAILED = "failed";

/**
 * The directory `name` under the run's directory, made by `make(dir)` in the first file that asks;
 * the others wait until it is made (or fail with the same error). Without the run's directory (a
 * file run outside this configuration) each file makes its own in `fallback`.
 */
export async function oncePerRun(name: string, fallback: string, make: (dir: string) => Promise<void>, timeoutMs = 180_000): Promise<string> {
  const root = runDir();
  if (!root) {
    const dir = path.join(fallback, name);
    await make(dir);
    return dir;
  }
  const slot = path.join(root, name);
  const dir = path.join(slot, "result");
  try {
    await mkdir(slot, { mode: 0o700 }); // only one file creates it: that one makes the result
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return waitFor(slot, dir, timeoutMs);
  }
  try {
    await make(dir);
    await writeFile(path.join(slot, DONE), "", { mode: 0o600 });
  } catch (error) {
    await writeFile(path.join(slot, FAILED), error instanceof Error ? (error.stack ?? error.message) : String(error), { mode: 0o600 });
    throw error;
  }
  return dir;
}

async function waitFor(slot: string, dir: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(path.join(slot, DONE))) return dir;
    if (existsSync(path.join(slot, FAILED))) throw new Error(`another test file failed to make ${slot}:\n${await readFile(path.join(slot, FAILED), "utf8")}`);
    if (Date.now() > deadline) throw new Error(`${slot} was not made within ${timeoutMs} ms by the test file making it`);
    await sleep(200);
  }
}

function runDir(): string | undefined {
  try {
    return (inject as (key: string) => string | undefined)("runDir");
  } catch {
    return undefined;
  }
}
