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

  it("hands back no output when it is inherited, and a signal's exit code as a shell gives it", async () => {
    const outcome = await runHarness({ command: ["sh", "-c", "kill -TERM $$"], env });
    expect(outcome.output).toBeUndefined();
    expect(outcome.signal).toBe("SIGTERM");
    expect(harnessExitCode(outcome)).toBe(143);
  });
});
