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
 * says and exits with. A harness the command runs has its output forwarded into the same capture
 * (`main`'s `harnessOutput: "forward"`) and an empty stdin. One run at a time (stdout, the
 * environment and the working directory are the process's own), so not under `describe.concurrent`.
 * Tests of the process itself (signals, stdin, start-up) and runs of the real runtime on a desktop
 * (its X connections must not outlive the desktop in this process) stay on `runCli`.
 */
export function runCliInProcess(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<InProcessResult> {
  const run = chain.then(() => runOnce(args, options));
  chain = run.catch(() => undefined);
  return run;
}

/**
 * A command that runs until stopped (`serve`), started in this process as `runCliInProcess` runs
 * one: what it has written to stderr so far, and `stop()`, which ends it as SIGINT would and gives
 * its result. Nothing else runs in process until it is stopped.
 */
export function startCliInProcess(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const abort = new AbortController();
  const err: Buffer[] = [];
  const run = chain.then(() => runOnce(args, { ...options, signal: abort.signal, err }));
  chain = run.catch(() => undefined);
  const stderr = () => Buffer.concat(err).toString("utf8");
  return {
    stderr,
    /** Resolves once stderr matches. */
    async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = pattern.exec(stderr());
        if (m) return m;
        const ended = await Promise.race([run.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 20))]);
        if (ended || Date.now() > deadline) throw new Error(`${args.join(" ")}: no ${pattern} on stderr${ended ? " before it ended" : ""}: ${stderr()}`);
      }
    },
    stop(): Promise<InProcessResult> {
      abort.abort();
      return run;
    },
  };
}

async function runOnce(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; signal?: AbortSignal; err?: Buffer[] },
): Promise<InProcessResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = options.err ?? [];
  const capture =
    (into: Buffer[]) =>
    (chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean => {
      // kept as bytes: a forwarded harness's chunk may end inside a UTF-8 character
      into.push(typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : Buffer.from(chunk));
      const done = typeof encoding === "function" ? encoding : callback;
      if (done) queueMicrotask(() => done());
      return true;
    };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  // yargs prints help and its messages with console.log / console.error, which the test runner owns
  const consoles = { log: console.log, error: console.error };
  console.log = (...parts: unknown[]) => void out.push(Buffer.from(`${format(...parts)}\n`));
  console.error = (...parts: unknown[]) => void err.push(Buffer.from(`${format(...parts)}\n`));
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
    const code = await main(args, { harnessOutput: "forward", ...(options.signal ? { signal: options.signal } : {}) });
    // as `runCli` (execa) gives them: without the final newline
    const text = (chunks: Buffer[]) =>
      Buffer.concat(chunks)
        .toString("utf8")
        .replace(/\r?\n$/, "");
    return { exitCode: code, stdout: text(out), stderr: text(err) };
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
