import type { Reply, ToolResult } from "#src/driver/port.js";
import { DAEMON_CLOSED, DAEMON_NOT_RUNNING, DAEMON_PREFIX, daemonFailureKind, INVALID_PARAMS_CODE, MISSING_ERA_METADATA } from "#src/driver/messages.js";
import { applyResultFault, CLI_DAEMON_DEADLINE_MS } from "#src/faults/result-faults.js";
import { assertNever } from "#src/util/assert-never.js";
import type { Decision } from "./engine.js";
import { syntheticResult } from "./synthetic-answer.js";
import { recordedOutcome, type RecordedOutcome } from "./tool-result.js";

export type InprocessAnswer =
  | { type: "reply"; delayMs: number; reply: Reply; served?: string }
  /** No answer: the caller's timeout (or the driver's own deadline) decides when it ends. */
  | { type: "hang"; afterMs: number };

/** A ToolResult with its exact bytes in `raw`. */
export function toolResultFromRaw(raw: string): ToolResult {
  const value = JSON.parse(raw) as ToolResult;
  return { ...value, content: value.content ?? [], raw };
}

function fromOutcome(tool: string, outcome: RecordedOutcome): { reply: Reply; served?: string } {
  switch (outcome.type) {
    case "result":
      return { reply: toolResultFromRaw(outcome.raw), served: outcome.raw };
    case "rpc_error":
      return { reply: { kind: "transport_error", tool, message: `JSON-RPC ${outcome.code}: ${outcome.message}` } };
    case "cli_failure": {
      const message = outcome.stderr.trim();
      const failure = daemonFailureKind(message);
      if (failure === "daemon_died" || failure === "timeout") return { reply: { kind: failure, tool, message } };
      // any other text of the daemon client about the daemon: it was not reached
      if (message.startsWith(DAEMON_PREFIX)) return { reply: { kind: "transport_error", tool, message } };
      // a daemon-level ok:false, shaped as the MCP proxy shows it (docs/reference/cua-driver-contract.md §2.5)
      const raw = JSON.stringify({
        content: [{ text: message, type: "text" }],
        isError: true,
        structuredContent: { exit_code: outcome.exitCode ?? 1 },
      });
      return { reply: toolResultFromRaw(raw), served: raw };
    }
    case "none":
      return { reply: { kind: "timeout", tool, message: "the recording holds no answer to this call" } };
  }
}

/** The in-process Driver's answer to a decision (transport faults become TransportFailure values). */
export function answerInprocess(decision: Decision): InprocessAnswer {
  const tool = decision.request.tool ?? "";
  const { exchange, fault } = decision;
  if (decision.synthetic) {
    const raw = syntheticResult({ synthetic: decision.synthetic, decision });
    return { type: "reply", delayMs: 0, reply: toolResultFromRaw(raw), served: raw };
  }
  if (!exchange) {
    return {
      type: "reply",
      delayMs: 0,
      reply: { kind: "transport_error", tool, message: `no recorded answer for call #${decision.n} (${tool}): ${decision.miss?.reason ?? "unmatched"}` },
    };
  }
  const outcome = recordedOutcome(exchange);
  if (!fault) return { type: "reply", delayMs: 0, ...fromOutcome(tool, outcome) };
  const f = fault.fault;
  switch (f.kind) {
    case "hang":
    case "timeout_after_effect":
    case "timeout_before_effect":
    case "freeze":
      return { type: "hang", afterMs: CLI_DAEMON_DEADLINE_MS };
    case "delay":
    case "stall":
      return { type: "reply", delayMs: f.ms, ...fromOutcome(tool, outcome) };
    case "no_effect":
      return { type: "reply", delayMs: 0, ...fromOutcome(tool, outcome) };
    case "daemon_down":
      return { type: "reply", delayMs: 0, reply: { kind: "transport_error", tool, message: DAEMON_NOT_RUNNING } };
    case "daemon_died_midcall":
      return { type: "reply", delayMs: 0, reply: { kind: "daemon_died", tool, message: DAEMON_CLOSED } };
    case "protocol_error":
      // no era in process: the refusal of a request without the era's metadata, as a recorded JSON-RPC error is shown
      return { type: "reply", delayMs: 0, reply: { kind: "transport_error", tool, message: `JSON-RPC ${INVALID_PARAMS_CODE}: ${MISSING_ERA_METADATA}` } };
    case "exit":
      return { type: "reply", delayMs: 0, reply: { kind: "daemon_died", tool, message: f.stderr ?? `driver exited with code ${f.code}` } };
    case "truncated":
      return { type: "reply", delayMs: 0, reply: { kind: "transport_error", tool, message: "the driver's answer ended mid-JSON" } };
    case "corrupt_image":
    case "empty":
    case "oversized":
    case "session_expired":
    case "refusal": {
      const raw = applyResultFault({
        fault: f,
        tool,
        args: decision.request.args,
        ...(outcome.type === "result" ? { recorded: outcome.raw } : {}),
        ...(decision.candidates ? { candidates: decision.candidates } : {}),
      });
      return { type: "reply", delayMs: f.kind === "refusal" ? (f.delay?.ms ?? 0) : 0, reply: toolResultFromRaw(raw), served: raw };
    }
    default:
      return assertNever(f, "fault kind");
  }
}
