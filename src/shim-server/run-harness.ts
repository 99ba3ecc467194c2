import { spawn } from "node:child_process";
import os from "node:os";
import { UserError } from "#src/errors.js";

export interface HarnessOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs the harness command with inherited stdio, forwarding SIGINT/SIGTERM/SIGHUP to it, so the
 * harness behaves as it would outside the recorder or replayer; its exit or signal is the result.
 */
export function runHarness(options: { command: string[]; env: Record<string, string> }): Promise<HarnessOutcome> {
  const [cmd, ...args] = options.command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: "inherit", env: options.env });
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
      resolve({ code, signal });
    });
  });
}

/** The harness's exit code as a shell reports it: 128 + n when it died of signal n, else its code (1 if none). */
export function harnessExitCode(outcome: HarnessOutcome): number {
  return outcome.signal ? 128 + (os.constants.signals[outcome.signal] ?? 0) : (outcome.code ?? 1);
}
