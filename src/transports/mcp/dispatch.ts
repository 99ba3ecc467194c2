import { parseJsonRpc } from "#src/replay/engine/exchanges.js";
import { mcpRequest } from "#src/replay/engine/request.js";
import type { ReplaySession } from "#src/replay/session.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import { READ_ONLY_TOOLS_0_21 } from "#src/driver/catalogue.js";
import { withHostTools } from "#src/transports/mcp/wire/host-tools.js";
import { checkForUpdateAnswer, probeToolsList } from "#src/replay/engine/static-answers.js";
import type { SynthesizedAnswer } from "#src/schema/replay-log.js";
import { INITIALIZE_INSTRUCTIONS_LINUX } from "#src/driver/binary-reference.js";
import { answerMcpCall, type McpAnswer } from "./answer.js";
import { errorLine, PARSE_ERROR_LINE, resultLine, withId } from "#src/transports/mcp/wire/envelope.js";
import { claimsModern, type EraSession, speaksModern } from "./era.js";
import {
  eraRendering,
  httpModernGap,
  initializeResult0_28,
  METADATA_METHODS_0_28,
  metadataResult,
  skillAnswer,
  toolCallRefusal,
  unknownToolLine,
} from "./modern-answers.js";
import { SKILL_METHODS } from "./skills.js";

/**
 * Answer one JSON-RPC line as `cua-driver mcp` would (docs/reference/cua-driver-contract.md §2.2-2.5): `initialize` and
 * `tools/list` from the recording whatever the client asks, `tools/call` through the engine,
 * notifications get nothing, unknown methods -32601, unparseable lines -32700.
 */
export async function dispatchMcpLine(options: {
  session: ReplaySession;
  line: string;
  stream: number;
  transport: "mcp" | "http";
  /** The stdio connection's era state, for a recording of 0.28 or later: every request passes the driver's era check (docs/eras.md). */
  era?: EraSession;
}): Promise<McpAnswer | undefined> {
  const { session, line, stream, transport } = options;
  if (line.trim() === "") return undefined;
  const message = parseJsonRpc(line);
  if (!message || message.method === undefined || !/"jsonrpc"\s*:/.test(line)) return { type: "line", delayMs: 0, line: PARSE_ERROR_LINE };
  const idRaw = message.idRaw;
  if (idRaw === undefined) return undefined; // a notification (or id:null): no answer
  const method = message.method;
  const dual = options.era !== undefined;
  const httpGap = transport === "http" && speaksModern(session.driverVersion) ? httpModernGap({ ...message, method }) : undefined;
  if (httpGap) return { type: "line", delayMs: 0, line: httpGap };
  const rendering = eraRendering({ era: options.era, driverVersion: session.driverVersion, line, message: { ...message, method } });
  if ("refused" in rendering) {
    // logged, so the invariants see a request the driver refused for the era it spoke
    const refused = { ...mcpRequest({ message, stream, transport }), era: claimsModern({ method, params: message.params }) ? "modern" : "legacy" } as const;
    session.record(session.synthesized(refused), {
      tMs: session.t(),
      synthesized: { kind: "era_refusal", basis: { source: "reference", detail: rendering.refused.basis } },
    });
    return { type: "line", delayMs: 0, line: rendering.refused.answer };
  }
  const modern = rendering.era === "modern";
  // a legacy request gets a modern-era recorded answer without the envelope, as the driver would answer it
  const { finish } = rendering;
  if (method === "tools/call") {
    const refusal = toolCallRefusal(idRaw, message.params, dual);
    if (refusal) return { type: "line", delayMs: 0, line: refusal };
  }
  if (method !== "initialize" && method !== "tools/list" && method !== "tools/call" && !(dual && METADATA_METHODS_0_28.has(method))) {
    return { type: "line", delayMs: 0, line: errorLine(idRaw, -32601, `Unknown method: ${method}`) };
  }
  const request = { ...mcpRequest({ message, stream, transport }), ...(rendering.era ? { era: rendering.era } : {}) };
  const tMs = session.t();
  if (method !== "tools/call" && !session.engine.exchanges.some((x) => x.request.method === method && x.rpc?.response)) {
    // the cassette has no such exchange (e.g. CLI-only): answer as the recorded driver version would
    const skill = dual && SKILL_METHODS.has(method) ? skillAnswer({ method, params: message.params, idRaw }) : undefined;
    if (skill && "line" in skill) return { type: "line", delayMs: 0, line: skill.line };
    const { raw, synthesized } =
      skill ??
      metadataResult(method) ??
      (method === "initialize" ? (dual ? initializeResult0_28(session.driverVersion) : synthesizedInitialize(session)) : synthesizedToolsList(session));
    session.record(session.synthesized(request), { tMs, synthesized });
    return { type: "line", delayMs: 0, line: finish(resultLine(idRaw, raw)) };
  }
  const update = request.tool === "check_for_update" ? checkForUpdateAnswer({ driver: session.driver, exchanges: session.engine.exchanges }) : undefined;
  if (update) {
    session.record(session.synthesized(request), { tMs, served: update.raw, synthesized: update.synthesized });
    return { type: "line", delayMs: 0, line: finish(resultLine(idRaw, update.raw)), served: update.raw };
  }
  const decision = session.decide(request);
  let answer: McpAnswer;
  // the modern era refuses a tool it does not list as a protocol error, before any lookup (mcp_wire.rs:167-179)
  if (modern && decision.synthetic?.kind === "permission_denied") answer = { type: "line", delayMs: 0, line: unknownToolLine(idRaw, request.tool ?? "") };
  else if (method === "tools/call") answer = answerMcpCall({ decision, idRaw, transport, ...rendering.call });
  else if (decision.exchange?.rpc?.response) answer = { type: "line", delayMs: 0, line: finish(withId(decision.exchange.rpc.response, idRaw)) };
  else answer = { type: "line", delayMs: 0, line: errorLine(idRaw, -32603, "cua-contract replay: no recorded answer") };
  // over HTTP each answer is its own response, so `--speed recorded` waits here (stdio paces its output stream)
  const paced = transport === "http" && answer.type === "line" ? session.speedDelayMs(decision) : 0;
  if (answer.type === "line" && answer.delayMs + paced > 0) await session.clock.sleep(answer.delayMs + paced);
  if (answer.type !== "hang") {
    session.record(decision, { tMs, ...(answer.type === "line" && answer.served !== undefined ? { served: answer.served } : {}) });
  } else {
    session.record(decision, { tMs });
  }
  return answer;
}

/**
 * Log a request the driver reads but never answers (its loop is stuck on an earlier call): every
 * invariant must see it. Notifications and unparseable lines are not requests and are not logged.
 */
export function logUnanswered(options: { session: ReplaySession; line: string; stream: number; transport: "mcp" | "http" }): void {
  const { session, line, stream, transport } = options;
  if (line.trim() === "") return;
  const message = parseJsonRpc(line);
  if (!message || message.method === undefined || message.idRaw === undefined) return;
  const request = mcpRequest({ message, stream, transport });
  session.record(session.unanswered(request), { tMs: session.t() });
}

// protocol.rs:331-386: the Linux instructions, protocolVersion fixed whatever the client asks
function synthesizedInitialize(session: ReplaySession): { raw: string; synthesized: SynthesizedAnswer } {
  const raw = canonicalJson({
    capabilities: { tools: {} },
    instructions: INITIALIZE_INSTRUCTIONS_LINUX,
    protocolVersion: "2025-06-18",
    serverInfo: { name: "cua-driver", version: session.driverVersion },
  });
  return { raw, synthesized: { kind: "initialize", basis: { source: "reference", detail: "protocol.rs:331-386 (Linux) with the recorded version" } } };
}

/** The probe's tools/list (every top-level field), else the tools the replay knows, with the binary's host tools. */
function synthesizedToolsList(session: ReplaySession): { raw: string; synthesized: SynthesizedAnswer } {
  const probe = probeToolsList(session.driver);
  if (probe) return probe;
  const basis = {
    kind: "tools_list" as const,
    basis: { source: "cassette" as const, detail: "tool names the cassette called; annotations from the 0.21 catalogue" },
  };
  const tools = session.engine.tools;
  if (tools) return { raw: canonicalJson(withHostTools({ tools })), synthesized: { kind: "tools_list", basis: { source: "probe", detail: "tool entries" } } };
  const names = [...new Set(session.engine.exchanges.filter((x) => x.request.method === "call" && x.request.tool).map((x) => x.request.tool!))].sort();
  const raw = canonicalJson({
    tools: names.map((name) => ({
      annotations: { readOnlyHint: READ_ONLY_TOOLS_0_21.has(name) },
      inputSchema: { type: "object" },
      name,
    })),
  });
  return { raw, synthesized: basis };
}
