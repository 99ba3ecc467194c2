/** Process helpers for the desktop: wait for a condition, stop a process and its descendants by pid. */
import { execa } from "execa";
import { setTimeout as sleep } from "node:timers/promises";

export async function waitFor(options: { what: string; timeoutMs: number; check: () => Promise<boolean> | boolean }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await options.check()) return;
    if (Date.now() > deadline) throw new Error(`${options.what} was not ready within ${options.timeoutMs} ms`);
    await sleep(50);
  }
}

/** The pid and every descendant pid (children first found via /proc through `ps`). */
export async function descendants(pid: number): Promise<number[]> {
  const r = await execa("ps", ["-e", "-o", "pid=,ppid="], { reject: false });
  const children = new Map<number, number[]>();
  for (const line of r.stdout.split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!child || parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const out: number[] = [];
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      visit(c);
      out.push(c);
    }
  };
  visit(pid);
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM the process and its descendants, wait up to 2 s, then SIGKILL what is left. */
export async function killTree(pid: number): Promise<void> {
  const pids = [...(await descendants(pid)), pid];
  for (const p of pids) {
    try {
      process.kill(p, "SIGTERM");
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 2_000;
  while (pids.some(alive) && Date.now() < deadline) await sleep(25);
  for (const p of pids.filter(alive)) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
