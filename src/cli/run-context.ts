/**
 * What the caller of `main` decides about a run beyond its arguments: where a harness's output goes,
 * and what stops a command that runs until Ctrl-C (`serve`). A process running the CLI
 * (bin/cua-contract.js) leaves the output inherited and stops on SIGINT/SIGTERM; a caller running it
 * inside its own process (a test) has the output forwarded through `process.stdout` / `process.stderr`
 * and stops it with an AbortSignal. Kept per call (AsyncLocalStorage), never in module state.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface MainOptions {
  /** `inherit` (default): the harness writes to this process's file descriptors; `forward`: through its streams. */
  harnessOutput?: "inherit" | "forward";
  /** Stops a command that runs until Ctrl-C as SIGINT would (SIGINT and SIGTERM still do). */
  signal?: AbortSignal;
}

const context = new AsyncLocalStorage<MainOptions>();

export function withMainOptions<T>(options: MainOptions, run: () => Promise<T>): Promise<T> {
  return context.run(options, run);
}

/** Where the running command sends its harness's output. */
export function harnessOutput(): "inherit" | "forward" {
  return context.getStore()?.harnessOutput ?? "inherit";
}

/** What stops the running command besides SIGINT and SIGTERM, if its caller gave one. */
export function stopSignal(): AbortSignal | undefined {
  return context.getStore()?.signal;
}
