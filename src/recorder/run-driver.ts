import { spawn } from "node:child_process";

export interface DriverRun {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number | null;
  signal?: NodeJS.Signals;
  /** The process could not be started at all (ENOENT, EACCES…). */
  spawnError?: Error;
}

/** Runs the real driver once, feeding stdin and collecting every byte; aborting kills it. */
export function runDriverOnce(options: {
  driver: string;
  argv: string[];
  stdin: Buffer;
  cwd: string;
  env: Record<string, string>;
  signal?: AbortSignal;
}): Promise<DriverRun> {
  return new Promise((resolve) => {
    const child = spawn(options.driver, options.argv, {
      cwd: options.cwd || process.cwd(),
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin);
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), 2000);
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      options.signal?.removeEventListener("abort", onAbort);
      resolve({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: null, spawnError: error });
    });
    child.on("close", (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      const run: DriverRun = { stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode: code };
      if (signal) run.signal = signal;
      resolve(run);
    });
  });
}
