import type { StoredBytes } from "#src/schema/bytes.js";
import { applyResultFault, CLI_DAEMON_DEADLINE_MS, truncateText } from "#src/faults/result-faults.js";
import { corruptBase64 } from "#src/faults/corrupt-image.js";
import { DAEMON_CLOSED, DAEMON_TIMED_OUT, daemonNotRunning, daemonRequestFailed, MISSING_ERA_METADATA } from "#src/driver/messages.js";
import { assertNever } from "#src/util/assert-never.js";
import type { Decision } from "#src/replay/engine/engine.js";
import type { FrameLookup } from "#src/replay/engine/frames.js";
import { renderCall, withImageBlock } from "#src/transports/cli/wire/render-call.js";
import { objectSpans, rawMember, setSortedMember } from "#src/wire/json/spans.js";
import { cliRuleFailure } from "#src/replay/engine/synthetic-answer.js";
import { recordedOutcome } from "#src/replay/engine/tool-result.js";
import { sessionEndedGuardText, sessionLabel } from "#src/replay/engine/session-lifecycle.js";

export interface CliOutputAnswer {
  stdout: StoredBytes;
  stderr: StoredBytes;
  exitCode: number | null;
  signal?: string;
  files: { path: string; base64: string }[];
  /** The raw result served (for the log), when there is one. */
  served?: string;
}

export type CliAnswer =
  | ({ type: "output"; delayMs: number } & CliOutputAnswer)
  /** Answer nothing; if the shim is still waiting after `afterMs`, give it `then` (the driver's own deadline). */
  | { type: "hang"; afterMs: number; then: CliOutputAnswer };

const failure = (stderr: string, exitCode = 1): CliOutputAnswer => ({ stdout: "", stderr, exitCode, files: [] });

/** What `cua-driver <argv>` prints for a decision: the recorded bytes, or the fault as the CLI shows it. */
export function answerCli(options: { decision: Decision; frame?: FrameLookup }): CliAnswer {
  const { decision, frame } = options;
  const { request, exchange, fault } = decision;
  const sock = request.socket ?? "";
  if (decision.synthetic) {
    const denied = cliRuleFailure({ synthetic: decision.synthetic, tool: request.tool ?? "" });
    return { type: "output", delayMs: 0, ...failure(denied.stderr, denied.exitCode) };
  }
  if (!exchange) {
    const m = decision.miss;
    return { type: "output", delayMs: 0, ...failure(`cua-contract replay: no recorded answer for ${describe(decision)}: ${m?.reason ?? "unmatched"}\n`) };
  }
  const normal = (): CliOutputAnswer => normalOutput({ decision, ...(frame ? { frame } : {}) });
  if (!fault) return { type: "output", delayMs: 0, ...normal() };
  const f = fault.fault;
  switch (f.kind) {
    case "hang":
    case "timeout_after_effect":
    case "timeout_before_effect":
    case "freeze":
      return {
        type: "hang",
        afterMs: CLI_DAEMON_DEADLINE_MS,
        then: failure(daemonRequestFailed(sock, DAEMON_TIMED_OUT)),
      };
    case "delay":
    case "stall":
      return { type: "output", delayMs: f.ms, ...normal() };
    case "no_effect":
      // answered as delivered: the recorded answer, byte for byte (the epoch stays)
      return { type: "output", delayMs: 0, ...normal() };
    case "session_expired": {
      // the daemon's guard for an ended session, as for one end_session ended (stderr, exit 1)
      const label = sessionLabel(request.args) ?? "default";
      return { type: "output", delayMs: 0, ...failure(`${sessionEndedGuardText(label, request.tool ?? "")}\n`) };
    }
    case "daemon_down": {
      const s = f.socket ?? sock;
      return { type: "output", delayMs: 0, ...failure(daemonNotRunning(s)) };
    }
    case "daemon_died_midcall":
      return { type: "output", delayMs: 0, ...failure(daemonRequestFailed(f.socket ?? sock, DAEMON_CLOSED)) };
    case "protocol_error":
      // no era on the CLI: the refusal of a request without the era's metadata, as a recorded JSON-RPC error is shown
      return { type: "output", delayMs: 0, ...failure(`${MISSING_ERA_METADATA}\n`) };
    case "exit":
      return { type: "output", delayMs: 0, ...failure(f.stderr ?? "", f.code) };
    case "truncated": {
      const out = normal();
      const text = typeof out.stdout === "string" ? out.stdout : "";
      return { type: "output", delayMs: 0, ...out, stdout: truncateText(text, f.keep), files: [] };
    }
    case "corrupt_image": {
      const out = normal();
      const stdout = typeof out.stdout === "string" ? corruptStdout(out.stdout) : out.stdout;
      return { type: "output", delayMs: 0, ...out, stdout, files: out.files.map((file) => ({ ...file, base64: corruptBase64(file.base64) })) };
    }
    case "empty":
    case "oversized":
    case "refusal": {
      const outcome = recordedOutcome(exchange);
      const raw = applyResultFault({
        fault: f,
        tool: request.tool ?? "",
        args: request.args,
        ...(outcome.type === "result" ? { recorded: outcome.raw } : {}),
        ...(decision.candidates ? { candidates: decision.candidates } : {}),
      });
      const rendered = renderCall({ raw, ...(request.outFile !== undefined ? { outFile: request.outFile } : {}) });
      return { type: "output", delayMs: f.kind === "refusal" ? (f.delay?.ms ?? 0) : 0, ...rendered, served: raw };
    }
    default:
      return assertNever(f, "fault kind");
  }
}

function describe(d: Decision): string {
  return d.request.method === "call" ? `call #${d.n} (${d.request.tool ?? "?"})` : `request #${d.n} (${d.request.method})`;
}

/** The recorded answer, byte for byte when it was recorded on the CLI, else rendered as the CLI would. */
function normalOutput(options: { decision: Decision; frame?: FrameLookup }): CliOutputAnswer {
  const { decision, frame } = options;
  const { request, exchange } = decision;
  const x = exchange!;
  const recordedOutFile = x.cli?.files?.["--screenshot-out-file"];
  const sameShape = (request.outFile !== undefined) === (x.request.outFile !== undefined);
  if (x.cli && (sameShape || request.method !== "call")) {
    const files = request.outFile !== undefined && recordedOutFile && frame ? [{ path: request.outFile, base64: frame(recordedOutFile.ref) }] : [];
    const served = x.cli.exitCode === 0 && request.method === "call" ? tryOutcomeRaw(decision) : undefined;
    return {
      stdout: x.cli.stdout,
      stderr: x.cli.stderr,
      exitCode: x.cli.exitCode,
      ...(x.cli.signal !== undefined ? { signal: x.cli.signal } : {}),
      files,
      ...(served !== undefined ? { served } : {}),
    };
  }
  const outcome = recordedOutcome(x);
  if (outcome.type === "result" && recordedOutFile && frame && request.outFile === undefined) {
    // recorded with --screenshot-out-file, asked without: the image comes back merged into stdout
    const raw = withImageBlock(outcome.raw, frame(recordedOutFile.ref), recordedOutFile.ref.endsWith(".jpg") ? "image/jpeg" : "image/png");
    return { ...renderCall({ raw }), served: raw };
  }
  if (outcome.type === "result") {
    return { ...renderCall({ raw: outcome.raw, ...(request.outFile !== undefined ? { outFile: request.outFile } : {}) }), served: outcome.raw };
  }
  if (outcome.type === "cli_failure") return failure(outcome.stderr, outcome.exitCode ?? 1);
  if (outcome.type === "rpc_error") return failure(`${outcome.message}\n`);
  return failure(`cua-contract replay: the recording holds no answer to #${x.seq}\n`);
}

function tryOutcomeRaw(decision: Decision): string | undefined {
  const outcome = recordedOutcome(decision.exchange!);
  return outcome.type === "result" ? outcome.raw : undefined;
}

/** Corrupt the merged `screenshot_png_b64` in pretty CLI stdout, leaving every other byte alone. */
function corruptStdout(stdout: string): string {
  try {
    if (!objectSpans(stdout).has("screenshot_png_b64")) return stdout;
    const data = JSON.parse(rawMember(stdout, "screenshot_png_b64")!) as string;
    return setSortedMember(stdout, "screenshot_png_b64", JSON.stringify(corruptBase64(data)));
  } catch {
    return stdout;
  }
}
