import { execa } from "execa";

/** What an external harness process did: its exit and its output, captured for the test. */
export interface HarnessRun {
  exitCode: number | null;
  signal?: string;
  stdout: string;
  stderr: string;
}

/** Runs a harness command (argv, no shell) with the given environment, capturing its output. */
export async function runCaptured(options: { command: readonly string[]; env: Record<string, string>; cwd?: string; timeoutMs?: number }): Promise<HarnessRun> {
  const [cmd, ...args] = options.command as [string, ...string[]];
  const r = await execa(cmd, args, {
    env: options.env,
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    ...(options.cwd ? { cwd: options.cwd } : {}),
    timeout: options.timeoutMs ?? 120_000,
  });
  return { exitCode: r.exitCode ?? null, ...(r.signal ? { signal: r.signal } : {}), stdout: String(r.stdout), stderr: String(r.stderr) };
}
