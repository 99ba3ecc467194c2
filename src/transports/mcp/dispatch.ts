import { parseJsonRpc } from "#src/replay/engine/exchanges.js";
import { type JsonRpcMessage, mcpRequest, type ReplayRequest } from "#src/replay/engine/request.js";
import type { Decision } from "#src/replay/engine/engine.js";
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
  type EraRendering,
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
  const { session, transport } = options;
  const checked = checkMcpLine(options);
  if (checked.type === "answered") return checked.answer;
  const { idRaw, method, message, rendering, request } = checked;
  const dual = options.era !== undefined;
  const { finish } = rendering;
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
  const answer = answerMcpDecision({ decision, checked, transport });
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

/** A request line that passed every check before a lookup: the request (in its era), and how its answers are rendered in that era. */
export interface CheckedMcpRequest {
  type: "request";
  idRaw: string;
  method: string;
  message: JsonRpcMessage;
  request: ReplayRequest;
  rendering: Extract<EraRendering, { era: unknown }>;
}

/**
 * What the replay front answers of a line before anything is looked up, in the driver's order: a
 * blank line or a notification nothing, an unparseable line -32700, a modern request over HTTP the
 * endpoint's gap, a request the era check refuses its era's refusal (logged), a `tools/call`
 * refused for its params, an unknown method -32601. Otherwise the request, with the era it spoke.
 * `dispatchMcpLine` starts here, and so does record-missing, so both answer a line alike; the era
 * state (`era`) sees each line once.
 */
export function checkMcpLine(options: {
  session: ReplaySession;
  line: string;
  stream: number;
  transport: "mcp" | "http";
  era?: EraSession;
}): { type: "answered"; answer: McpAnswer | undefined } | CheckedMcpRequest {
  const { session, line, stream, transport } = options;
  const answered = (l?: string) => ({ type: "answered" as const, answer: l === undefined ? undefined : { type: "line" as const, delayMs: 0, line: l } });
  if (line.trim() === "") return answered();
  const message = parseJsonRpc(line);
  if (!message || message.method === undefined || !/"jsonrpc"\s*:/.test(line)) return answered(PARSE_ERROR_LINE);
  const idRaw = message.idRaw;
  if (idRaw === undefined) return answered(); // a notification (or id:null): no answer
  const method = message.method;
  const dual = options.era !== undefined;
  const httpGap = transport === "http" && speaksModern(session.driverVersion) ? httpModernGap({ ...message, method }) : undefined;
  if (httpGap) return answered(httpGap);
  const rendering = eraRendering({ era: options.era, driverVersion: session.driverVersion, line, message: { ...message, method } });
  if ("refused" in rendering) {
    // logged, so the invariants see a request the driver refused for the era it spoke
    const refused = { ...mcpRequest({ message, stream, transport }), era: claimsModern({ method, params: message.params }) ? "modern" : "legacy" } as const;
    session.record(session.synthesized(refused), {
      tMs: session.t(),
      synthesized: { kind: "era_refusal", basis: { source: "reference", detail: rendering.refused.basis } },
    });
    return answered(rendering.refused.answer);
  }
  if (method === "tools/call") {
    const refusal = toolCallRefusal(idRaw, message.params, dual);
    if (refusal) return answered(refusal);
  }
  if (method !== "initialize" && method !== "tools/list" && method !== "tools/call" && !(dual && METADATA_METHODS_0_28.has(method))) {
    return answered(errorLine(idRaw, -32601, `Unknown method: ${method}`));
  }
  const request = { ...mcpRequest({ message, stream, transport }), ...(rendering.era ? { era: rendering.era } : {}) };
  return { type: "request", idRaw, method, message, request, rendering };
}

/**
 * The answer to a checked request the engine decided, in the request's era: a modern call of a
 * tool the server does not list is the modern era's protocol error, refused before any lookup
 * (mcp_wire.rs:167-179); a `tools/call` is rendered by `answerMcpCall` (faults included); another
 * method gets its recorded line, finished for the era.
 */
export function answerMcpDecision(options: { decision: Decision; checked: CheckedMcpRequest; transport: "mcp" | "http" }): McpAnswer {
  const { decision, transport } = options;
  const { idRaw, method, request, rendering } = options.checked;
  if (rendering.era === "modern" && decision.synthetic?.kind === "permission_denied")
    return { type: "line", delayMs: 0, line: unknownToolLine(idRaw, request.tool ?? "") };
  if (method === "tools/call") return answerMcpCall({ decision, idRaw, transport, ...rendering.call });
  if (decision.exchange?.rpc?.response) return { type: "line", delayMs: 0, line: rendering.finish(withId(decision.exchange.rpc.response, idRaw)) };
  return { type: "line", delayMs: 0, line: errorLine(idRaw, -32603, "cua-contract replay: no recorded answer") };
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
