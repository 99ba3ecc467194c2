/** Process helpers for the desktop: wait for a condition, stop a program and what it started by process group. */
import { setTimeout as sleep } from "node:timers/promises";

export async function waitFor(options: { what: string; timeoutMs: number; check: () => Promise<boolean> | boolean }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await options.check()) return;
    if (Date.now() > deadline) throw new Error(`${options.what} was not ready within ${options.timeoutMs} ms`);
    await sleep(50);
  }
}

/** Whether any process of the group led by `pgid` is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * SIGTERM the process group a desktop program leads (each is spawned detached, so it and
 * everything it starts share its pid as their group id), wait up to 2 s, then SIGKILL the group.
 */
export async function killTree(pid: number): Promise<void> {
  signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + 2_000;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(25);
  if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
}
