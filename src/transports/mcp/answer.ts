import { connectRefused, DAEMON_CLOSED, EXAMPLE_SOCKET, PANIC_EXIT_CODE, proxyForwardingError } from "#src/driver/messages.js";
import { applyResultFault, truncateText } from "#src/faults/result-faults.js";
import type { Decision } from "#src/replay/engine/engine.js";
import { syntheticResult } from "#src/replay/engine/synthetic-answer.js";
import { recordedOutcome } from "#src/replay/engine/tool-result.js";
import { assertNever } from "#src/util/assert-never.js";
import { errorLine, resultLine, withId } from "#src/transports/mcp/wire/envelope.js";
import { type McpEra, protocolFaultLine } from "./era.js";

export type McpAnswer =
  | { type: "line"; line: string; delayMs: number; served?: string }
  /** Never answer; the server handles one request at a time, so the stream is stuck from here on. */
  | { type: "hang" }
  /** The process ends: stderr written, stdout closed (EOF), this exit code. */
  | { type: "exit"; code: number; stderr?: string }
  /** HTTP only: close the connection without a response. */
  | { type: "drop" };

/** What answering one `tools/call` decision needs. */
export interface McpCallOptions {
  decision: Decision;
  idRaw: string;
  transport: "mcp" | "http";
  /** Finishes a whole response line for the request's era (the modern envelope on results: ./era.ts). */
  finish?: (line: string) => string;
  /** The era the request spoke and its params (for a protocol error in that era); legacy when absent. */
  era?: { era: McpEra; params: unknown };
}

/**
 * The JSON-RPC answer to a `tools/call` decision: the recorded line (id swapped) when it was
 * recorded over MCP or HTTP, otherwise built from the recorded result; faults as `cua-driver mcp`
 * shows them (docs/reference/cua-driver-contract.md §2.5, §6).
 */
export function answerMcpCall(options: McpCallOptions): McpAnswer {
  const answer = answerCall(options);
  const { finish } = options;
  // a truncated line was finished before it was cut, as the driver wrote the whole line first
  if (!finish || answer.type !== "line" || options.decision.fault?.fault.kind === "truncated") return answer;
  return { ...answer, line: finish(answer.line) };
}

function answerCall(options: McpCallOptions): McpAnswer {
  const { decision, idRaw } = options;
  const { exchange, fault, request } = decision;
  const tool = request.tool ?? "";
  if (decision.synthetic) {
    const raw = syntheticResult({ synthetic: decision.synthetic, decision });
    return { type: "line", delayMs: 0, line: resultLine(idRaw, raw), served: raw };
  }
  if (!exchange) {
    return {
      type: "line",
      delayMs: 0,
      line: errorLine(idRaw, -32603, `cua-contract replay: no recorded answer for call #${decision.n} (${tool}): ${decision.miss?.reason ?? "unmatched"}`),
    };
  }
  const outcome = recordedOutcome(exchange);
  const normal = (): { line: string; served?: string } => {
    if (exchange.rpc?.response !== undefined && (exchange.transport === "mcp" || exchange.transport === "http")) {
      return { line: withId(exchange.rpc.response, idRaw), ...(outcome.type === "result" ? { served: outcome.raw } : {}) };
    }
    if (outcome.type === "result") return { line: resultLine(idRaw, outcome.raw), served: outcome.raw };
    if (outcome.type === "rpc_error") return { line: errorLine(idRaw, outcome.code, outcome.message) };
    if (outcome.type === "cli_failure") {
      // a daemon-level ok:false, as the MCP proxy reports it (isError + structuredContent.exit_code)
      const raw = JSON.stringify({
        content: [{ text: outcome.stderr.trim(), type: "text" }],
        isError: true,
        structuredContent: { exit_code: outcome.exitCode ?? 1 },
      });
      return { line: resultLine(idRaw, raw), served: raw };
    }
    return { line: errorLine(idRaw, -32603, `cua-contract replay: the recording holds no answer to #${exchange.seq}`) };
  };
  if (!fault) return { type: "line", delayMs: 0, ...normal() };
  const f = fault.fault;
  switch (f.kind) {
    case "hang":
    case "timeout_after_effect":
    case "timeout_before_effect":
    case "freeze":
      return { type: "hang" };
    case "delay":
    case "stall":
      return { type: "line", delayMs: f.ms, ...normal() };
    case "no_effect":
      return { type: "line", delayMs: 0, ...normal() };
    case "daemon_down":
      return {
        type: "line",
        delayMs: 0,
        line: errorLine(idRaw, -32603, proxyForwardingError(tool, connectRefused(f.socket ?? EXAMPLE_SOCKET))),
      };
    case "daemon_died_midcall":
      if (f.mode === "proxy") {
        return { type: "line", delayMs: 0, line: errorLine(idRaw, -32603, proxyForwardingError(tool, DAEMON_CLOSED)) };
      }
      return options.transport === "http" ? { type: "drop" } : { type: "exit", code: PANIC_EXIT_CODE };
    case "exit":
      return options.transport === "http" ? { type: "drop" } : { type: "exit", code: f.code, ...(f.stderr !== undefined ? { stderr: f.stderr } : {}) };
    case "truncated":
      return { type: "line", delayMs: 0, line: truncateText((options.finish ?? ((l: string) => l))(normal().line), f.keep) };
    case "protocol_error":
      return { type: "line", delayMs: 0, line: protocolFaultLine({ idRaw, era: options.era?.era ?? "legacy", params: options.era?.params, fault: f }) };
    case "corrupt_image":
    case "empty":
    case "oversized":
    case "session_expired":
    case "refusal": {
      const raw = applyResultFault({
        fault: f,
        tool,
        args: request.args,
        ...(outcome.type === "result" ? { recorded: outcome.raw } : {}),
        ...(decision.candidates ? { candidates: decision.candidates } : {}),
      });
      return { type: "line", delayMs: f.kind === "refusal" ? (f.delay?.ms ?? 0) : 0, line: resultLine(idRaw, raw), served: raw };
    }
    default:
      return assertNever(f, "fault kind");
  }
}
