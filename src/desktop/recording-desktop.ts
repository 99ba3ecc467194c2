/**
 * `record --desktop`: a throwaway desktop whose environment (DISPLAY, D-Bus, CUA_DESKTOP_APP_PID)
 * is put into this process's environment for the recording — the in-process runtime and the
 * harness both read it from there — and taken out again, with the desktop, on dispose.
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { startDesktop, type Desktop, type DesktopOptions } from "./desktop.js";
import { killTree } from "./processes.js";

export async function startRecordingDesktop(options: DesktopOptions & { xServerAfterExit?: boolean } = {}): Promise<Desktop> {
  const desktop = await startDesktop(options);
  const added: Record<string, string> = { ...desktop.env, ...(desktop.appPid ? { CUA_DESKTOP_APP_PID: String(desktop.appPid) } : {}) };
  const before = new Map(Object.keys(added).map((k) => [k, process.env[k]]));
  Object.assign(process.env, added);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      for (const [k, v] of before) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      // The in-process runtime keeps an X clipboard thread that prints "process_server_req error:
      // … X11 server closed the connection" on fd 1 — the harness's stdout — when the X server
      // goes first, and nothing stops that thread. So the X server outlives this process by a
      // moment: everything else stops now, the X server once this process has exited. A driver
      // binary runs in its own process and needs none of this.
      if (!options.xServerAfterExit) return void (await desktop.stop());
      const x = desktop.processes.filter((p) => p.name === "Xvfb");
      for (const proc of desktop.processes.filter((p) => p.name !== "Xvfb").reverse()) await killTree(proc.pid);
      if (x.length === 0) return void (await rm(desktop.stateDir, { recursive: true, force: true }));
      stopAfterExit({ pids: x.map((p) => p.pid), stateDir: desktop.stateDir });
    })());
  return { ...desktop, stop, [Symbol.asyncDispose]: stop };
}

/** A detached sh that waits for this process to exit, then stops `pids` (TERM, then KILL after 2 s) and removes the state dir. */
function stopAfterExit(options: { pids: number[]; stateDir: string }): void {
  const pids = options.pids.join(" ");
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.05; done`,
    `kill -TERM ${pids} 2>/dev/null`,
    `for i in $(seq 40); do kill -0 ${pids} 2>/dev/null || break; sleep 0.05; done`,
    `kill -KILL ${pids} 2>/dev/null`,
    `rm -rf -- "$1"`,
  ].join("; ");
  spawn("sh", ["-c", script, "sh", options.stateDir], { detached: true, stdio: "ignore" }).unref();
}
