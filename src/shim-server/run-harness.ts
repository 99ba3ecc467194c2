import { spawn } from "node:child_process";
import os from "node:os";
import { UserError } from "#src/errors.js";

export interface HarnessOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What the harness printed, when its output was piped (`output: "pipe"`): the last MiB of each stream. */
  output?: { stdout: string; stderr: string };
}

/** How the harness is run: its working directory and where its output goes. */
export interface HarnessRunOptions {
  /** The harness's working directory (default: this process's). */
  cwd?: string;
  /**
   * `inherit` (default): the harness prints to this process's stdout and stderr, as it would run
   * alone. `pipe`: its output is kept and handed back, and its stdin is empty (a caller running
   * harnesses side by side in one process, e.g. a test). `forward`: its output is written, as it
   * comes, through this process's `process.stdout` and `process.stderr` streams rather than to
   * their file descriptors (a caller that captures those streams, e.g. the CLI run inside a test),
   * and its stdin is empty.
   */
  output?: "inherit" | "pipe" | "forward";
}

const KEPT_OUTPUT = 2 ** 20;

/** A stream's text, keeping only its last `KEPT_OUTPUT` bytes. */
function tailOf(stream: NodeJS.ReadableStream | null): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream?.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    while (size - chunks[0]!.length >= KEPT_OUTPUT) size -= chunks.shift()!.length;
  });
  return () => Buffer.concat(chunks).subarray(-KEPT_OUTPUT).toString("utf8");
}

/**
 * Runs the harness command with inherited stdio (or piped, `output: "pipe"` / `"forward"`), forwarding
 * SIGINT/SIGTERM/SIGHUP to it, so the harness behaves as it would outside the recorder or
 * replayer; its exit or signal is the result.
 */
export function runHarness(options: { command: string[]; env: Record<string, string> } & HarnessRunOptions): Promise<HarnessOutcome> {
  const [cmd, ...args] = options.command as [string, ...string[]];
  const piped = options.output === "pipe";
  const forwarded = options.output === "forward";
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: piped || forwarded ? ["ignore", "pipe", "pipe"] : "inherit",
      env: options.env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    const stdout = piped ? tailOf(child.stdout) : undefined;
    const stderr = piped ? tailOf(child.stderr) : undefined;
    if (forwarded) {
      child.stdout?.on("data", (chunk: Buffer) => process.stdout.write(chunk));
      child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    }
    const forward = (sig: NodeJS.Signals) => () => child.kill(sig);
    const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((sig) => [sig, forward(sig)] as const);
    for (const [sig, fn] of handlers) process.on(sig, fn);
    const cleanup = () => {
      for (const [sig, fn] of handlers) process.off(sig, fn);
    };
    child.on("error", (error) => {
      cleanup();
      reject(
        new UserError(`cannot run the harness command ${JSON.stringify(cmd)}: ${error.message}`, {
          code: "BAD_INPUT",
          field: "--",
          fix: "Check the command after `--` (it must be an executable on PATH or a path to one).",
        }),
      );
    });
    child.on("close", (code, signal) => {
      cleanup();
      resolve({ code, signal, ...(stdout && stderr ? { output: { stdout: stdout(), stderr: stderr() } } : {}) });
    });
  });
}

/** The harness's exit code as a shell reports it: 128 + n when it died of signal n, else its code (1 if none). */
export function harnessExitCode(outcome: HarnessOutcome): number {
  return outcome.signal ? 128 + (os.constants.signals[outcome.signal] ?? 0) : (outcome.code ?? 1);
}
