/**
 * What the caller of `main` decides about a run beyond its arguments, for the commands that run a
 * harness: where the harness's output goes. A process running the CLI (bin/cua-contract.js) leaves
 * it inherited; a caller that captures `process.stdout` and `process.stderr` (the CLI run inside a
 * test) has it forwarded through them. Kept per call (AsyncLocalStorage), never in module state.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface MainOptions {
  /** `inherit` (default): the harness writes to this process's file descriptors; `forward`: through its streams. */
  harnessOutput?: "inherit" | "forward";
}

const context = new AsyncLocalStorage<MainOptions>();

export function withMainOptions<T>(options: MainOptions, run: () => Promise<T>): Promise<T> {
  return context.run(options, run);
}

/** Where the running command sends its harness's output. */
export function harnessOutput(): "inherit" | "forward" {
  return context.getStore()?.harnessOutput ?? "inherit";
}
