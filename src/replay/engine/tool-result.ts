import { resultFromCliStdout } from "#src/transports/cli/wire/stdout.js";
import { rawMember } from "#src/wire/json/spans.js";
import type { RecordedExchange, RecordedOutcome } from "./recorded-exchange.js";

export type { RecordedOutcome } from "./recorded-exchange.js";

/**
 * The outcome of a recorded exchange. From CLI stdout the result is rebuilt as well as the
 * bytes allow (docs/decisions/0010): pretty JSON becomes `structuredContent` (compacted token
 * by token), a merged `screenshot_png_b64` becomes an image block, plain text becomes one text
 * block, and a refusal envelope marks `isError`.
 */
export function recordedOutcome(x: RecordedExchange): RecordedOutcome {
  // an exchange never changes once built: its outcome is worked out once while it is in use, in
  // its preparation's memo (a result is a slice of its answer and keeps it alive, hence twice its
  // length: memory stays bounded when the answers are read from the cassette on demand)
  if (!x.memo) return outcomeOf(x);
  return x.memo.outcomes.through(
    x,
    () => outcomeOf(x),
    (o) => 256 + 2 * ("raw" in o ? o.raw.length : "stderr" in o ? o.stderr.length : 0),
  );
}

function outcomeOf(x: RecordedExchange): RecordedOutcome {
  if (x.rpc) {
    if (x.rpc.response === undefined) return { type: "none" };
    const result = safe(() => rawMember(x.rpc!.response!, "result"));
    if (result !== undefined) return { type: "result", raw: result, derived: false };
    const error = safe(() => rawMember(x.rpc!.response!, "error"));
    if (error !== undefined) {
      const e = JSON.parse(error) as { code?: number; message?: string };
      return { type: "rpc_error", code: e.code ?? -32603, message: e.message ?? "" };
    }
    return { type: "none" };
  }
  if (!x.cli) return { type: "none" };
  const stdout = typeof x.cli.stdout === "string" ? x.cli.stdout : "";
  const stderr = typeof x.cli.stderr === "string" ? x.cli.stderr : "";
  if (x.cli.exitCode !== 0) {
    return { type: "cli_failure", exitCode: x.cli.exitCode, stderr, ...(x.cli.signal ? { signal: x.cli.signal } : {}) };
  }
  return { type: "result", raw: resultFromCliStdout({ stdout, tool: x.request.tool ?? "" }), derived: true };
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
