import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Clock } from "#src/driver/port.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import { fromStoredBytes } from "#src/cassette/stored-bytes.js";
import type { CliAnswer } from "#src/transports/cli/answer.js";

/** What the shim got for a rendered CLI answer, and whether the harness gave up on it first. */
export interface DeliveredCli {
  response: CliResponse;
  /** The harness killed the shim while it waited (its own timeout). */
  aborted: boolean;
  /** Exit code for the log: undefined when the harness gave up first. */
  exitCode?: number | null;
}

/**
 * Serve a rendered CLI answer to the shim as `cua-driver` would: a hang waits for the driver's
 * own deadline (or the harness's kill), a delay waits, files are written where the harness asked
 * (a failed write is reported on stderr, exit code kept: docs/reference/cua-driver-contract.md §0.3). Shared by replay and
 * by recording with faults, so both serve a fault the same way.
 */
export async function deliverCliAnswer(options: {
  answer: CliAnswer;
  request: CliRequest;
  clock: Clock;
  /** Extra wait before an answer goes out (`--speed recorded`). */
  pacedMs?: number;
}): Promise<DeliveredCli> {
  const { answer, request, clock } = options;
  if (answer.type === "hang") {
    await clock.sleep(answer.afterMs, request.signal);
    if (request.signal.aborted) return { response: { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: null, signal: "SIGKILL" }, aborted: true };
    return {
      response: { stdout: fromStoredBytes(answer.then.stdout), stderr: fromStoredBytes(answer.then.stderr), exitCode: answer.then.exitCode },
      aborted: false,
      exitCode: answer.then.exitCode,
    };
  }
  const wait = answer.delayMs + (options.pacedMs ?? 0);
  if (wait > 0) await clock.sleep(wait, request.signal);
  let stderr = fromStoredBytes(answer.stderr);
  for (const file of answer.files) {
    const target = path.resolve(request.cwd || process.cwd(), file.path);
    try {
      await writeFile(target, Buffer.from(file.base64, "base64"));
    } catch (error) {
      stderr = Buffer.concat([stderr, Buffer.from(`failed to write screenshot to ${file.path}: ${(error as Error).message}\n`)]);
    }
  }
  return {
    response: {
      stdout: fromStoredBytes(answer.stdout),
      stderr,
      exitCode: answer.exitCode,
      ...(answer.signal !== undefined ? { signal: answer.signal as NodeJS.Signals } : {}),
    },
    aborted: false,
    exitCode: answer.exitCode,
  };
}
