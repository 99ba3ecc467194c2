import os from "node:os";
import { describe, expect, it } from "vitest";
import { harnessExitCode, runHarness } from "./run-harness.js";

const env = process.env as Record<string, string>;

describe("runHarness", () => {
  it("pipes the harness's output when asked, in its own working directory, with an empty stdin", async () => {
    const outcome = await runHarness({
      command: ["sh", "-c", 'pwd; echo "$EXTRA" >&2; cat; exit 3'],
      env: { ...env, EXTRA: "from the caller" },
      cwd: os.tmpdir(),
      output: "pipe",
    });
    expect(outcome.code).toBe(3);
    expect(outcome.output).toEqual({ stdout: `${os.tmpdir()}\n`, stderr: "from the caller\n" });
  });

  it("keeps the last MiB of a long output", async () => {
    const outcome = await runHarness({ command: ["sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' a; echo end"], env, output: "pipe" });
    expect(outcome.output!.stdout.length).toBe(2 ** 20);
    expect(outcome.output!.stdout.endsWith("aaaend\n")).toBe(true);
  });

  it("forwards the harness's output through this process's streams as it comes, whole, with an empty stdin", async () => {
    const seen: { stream: string; text: string }[] = [];
    const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
    const into = (stream: string) =>
      ((chunk: Uint8Array | string) => {
        seen.push({ stream, text: Buffer.from(chunk).toString("utf8") });
        return true;
      }) as typeof process.stdout.write;
    process.stdout.write = into("stdout");
    process.stderr.write = into("stderr");
    let outcome: Awaited<ReturnType<typeof runHarness>>;
    try {
      outcome = await runHarness({ command: ["sh", "-c", 'echo one; sleep 0.05; echo two >&2; sleep 0.05; cat; echo "été"'], env, output: "forward" });
    } finally {
      process.stdout.write = writes.stdout;
      process.stderr.write = writes.stderr;
    }
    expect(outcome.code).toBe(0);
    expect(outcome.output).toBeUndefined();
    expect(seen).toEqual([
      { stream: "stdout", text: "one\n" },
      { stream: "stderr", text: "two\n" },
      { stream: "stdout", text: "été\n" },
    ]);
  });

  it("hands back no output when it is inherited, and a signal's exit code as a shell gives it", async () => {
    const outcome = await runHarness({ command: ["sh", "-c", "kill -TERM $$"], env });
    expect(outcome.output).toBeUndefined();
    expect(outcome.signal).toBe("SIGTERM");
    expect(harnessExitCode(outcome)).toBe(143);
  });
});
