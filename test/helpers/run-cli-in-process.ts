import { format } from "node:util";
import { main } from "#src/cli/main.js";
import { repoRoot } from "./run-cli.js";

export interface InProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

let chain: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI's `main` in this test process, with what it writes to stdout and stderr captured:
 * the same code path as `bin/cua-contract.js` minus the Node start-up, for tests of what a command
 * says and exits with. One run at a time (stdout, the environment and the working directory are the
 * process's own), so use it for commands that do not run a harness (whose output would not be
 * captured) and not under `describe.concurrent`. Spawning tests stay on `runCli`.
 */
export function runCliInProcess(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<InProcessResult> {
  const run = chain.then(() => runOnce(args, options));
  chain = run.catch(() => undefined);
  return run;
}

async function runOnce(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> }): Promise<InProcessResult> {
  const out: string[] = [];
  const err: string[] = [];
  const capture =
    (into: string[]) =>
    (chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean => {
      into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const done = typeof encoding === "function" ? encoding : callback;
      if (done) queueMicrotask(() => done());
      return true;
    };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  // yargs prints help and its messages with console.log / console.error, which the test runner owns
  const consoles = { log: console.log, error: console.error };
  console.log = (...parts: unknown[]) => void out.push(`${format(...parts)}\n`);
  console.error = (...parts: unknown[]) => void err.push(`${format(...parts)}\n`);
  const env = { ...process.env };
  const cwd = process.cwd();
  const exitCode = process.exitCode;
  process.stdout.write = capture(out) as typeof process.stdout.write;
  process.stderr.write = capture(err) as typeof process.stderr.write;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  process.chdir(options.cwd ?? repoRoot);
  try {
    const code = await main(args);
    // as `runCli` (execa) gives them: without the final newline
    return { exitCode: code, stdout: out.join("").replace(/\r?\n$/, ""), stderr: err.join("").replace(/\r?\n$/, "") };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    console.log = consoles.log;
    console.error = consoles.error;
    for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
    Object.assign(process.env, env);
    process.chdir(cwd);
    process.exitCode = exitCode;
  }
}
