/**
 * The MCP era of one request, as cua-driver ≥ 0.28 decides it on stdio (docs/eras.md,
 * docs/discoveries/modern-mcp-era.md): `classify_request` and `ProtocolSession` of
 * `mcp_wire.rs` (trycua/cua 4d6f4a55, lines 25-98), and `finish_response` (lines 123-145), which
 * puts the modern envelope on a result. The one place the era is decided; everything else asks
 * here. Pure: text in, text out.
 */
import { objectSpans, rawMember, removeMembers, setSortedMember, spliceSpan } from "#src/wire/json/spans.js";
import { serdeString } from "#src/wire/json/string.js";
import { satisfies } from "#src/util/versions.js";
import { FIRST_MODERN_RELEASE } from "#src/driver/reference-version.js";
import { MODERN_MCP_ERA } from "#src/schema/probe-snapshot.js";
import { INVALID_PARAMS_CODE, MISSING_ERA_METADATA } from "#src/driver/messages.js";
import type { ProtocolErrorReason } from "#src/schema/fault-plan.js";
import { assertNever } from "#src/util/assert-never.js";

export type McpEra = "legacy" | "modern";

/** The modern era's protocol version, as the snapshot schema names it. */
export const MODERN_PROTOCOL_VERSION = MODERN_MCP_ERA;
export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
export const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
export const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

export { FIRST_MODERN_RELEASE };

/** Whether a driver of this version serves the 2026-07-28 era on stdio. */
export function speaksModern(driverVersion: string): boolean {
  return satisfies(driverVersion, `>=${FIRST_MODERN_RELEASE}`);
}

/** What the era decision reads of one JSON-RPC request. */
export interface EraRequest {
  /** The parsed `jsonrpc` member (undefined when absent). */
  jsonrpc: unknown;
  /** The id as sent (JSON text), undefined for a notification. */
  idRaw: string | undefined;
  method: string;
  /** The parsed `params`; undefined or null when absent. */
  params: unknown;
}

export type EraDecision = { era: McpEra } | { refusal: string };

/**
 * `classify_request`: modern when `params._meta` holds either protocol key (a key whose value is
 * null counts) or the method is `server/discover`; a modern request is then checked in the driver's
 * order — JSON-RPC envelope (-32600, id null), params an object, the version a string, the version
 * supported (-32022 with data), the capabilities an object. Legacy otherwise, unless `_meta` is
 * there and not an object.
 */
export function classifyRequest(request: EraRequest): EraDecision {
  if (!claimsModern(request)) {
    const params = isObject(request.params) ? request.params : undefined;
    if (params !== undefined && "_meta" in params && !isObject(params._meta))
      return { refusal: protocolErrorLine(request.idRaw, -32602, "MCP _meta must be an object") };
    return { era: "legacy" };
  }
  return classifyModern(request);
}

/** Whether the request asks for the modern era: the method is `server/discover`, or `params._meta` holds a protocol key. */
export function claimsModern(request: Pick<EraRequest, "method" | "params">): boolean {
  if (request.method === "server/discover") return true;
  const params = isObject(request.params) ? request.params : undefined;
  const meta = params?._meta;
  return isObject(meta) && (PROTOCOL_VERSION_KEY in meta || CLIENT_CAPABILITIES_KEY in meta);
}

function classifyModern(request: EraRequest): EraDecision {
  const params = isObject(request.params) ? request.params : undefined;
  const metaObject = isObject(params?._meta) ? (params._meta as Record<string, unknown>) : undefined;
  const id = request.idRaw;
  if (request.jsonrpc !== "2.0" || !validRequestId(id)) return { refusal: protocolErrorLine(undefined, -32600, "Invalid JSON-RPC request") };
  if (params === undefined) return { refusal: protocolErrorLine(id, -32602, "MCP params must be an object") };
  const version = metaObject?.[PROTOCOL_VERSION_KEY];
  if (typeof version !== "string") return { refusal: modernRefusalLine(id, "missing_protocol_version") };
  if (version !== MODERN_PROTOCOL_VERSION) return { refusal: modernRefusalLine(id, "unsupported_version", { requested: version }) };
  if (!isObject(metaObject?.[CLIENT_CAPABILITIES_KEY])) return { refusal: modernRefusalLine(id, "missing_client_capabilities") };
  return { era: "modern" };
}

/**
 * A modern request's protocol refusal, as `classify_request` words it (mcp_wire.rs:76-96):
 * `-32022 Unsupported protocol version` with `data: {"requested":…,"supported":[…]}` (a
 * `json!` map, so `requested` comes out first), or the `-32602` of the missing version or
 * capabilities. `supported` defaults to the driver's own list.
 */
export function modernRefusalLine(
  idRaw: string | undefined,
  reason: ProtocolErrorReason,
  options: { requested?: string; supported?: readonly string[] } = {},
): string {
  switch (reason) {
    case "unsupported_version": {
      const supported = (options.supported ?? [MODERN_PROTOCOL_VERSION]).map(serdeString).join(",");
      const requested = options.requested === undefined ? "null" : serdeString(options.requested);
      return protocolErrorLine(idRaw, -32022, "Unsupported protocol version", `{"requested":${requested},"supported":[${supported}]}`);
    }
    case "missing_protocol_version":
      return protocolErrorLine(idRaw, INVALID_PARAMS_CODE, "Missing or invalid MCP protocolVersion metadata");
    case "missing_client_capabilities":
      return protocolErrorLine(idRaw, INVALID_PARAMS_CODE, "Missing or invalid MCP clientCapabilities metadata");
    default:
      return assertNever(reason, "protocol error reason");
  }
}

/**
 * A `protocol_error` fault in the era of the request it hits: a modern request gets the refusal
 * of its reason as the driver words it, with the version the request asked for; a legacy one
 * (and a connection without eras: before 0.28, over HTTP) the refusal the driver gives a request
 * without the era's metadata, whatever the reason.
 */
export function protocolFaultLine(options: {
  idRaw: string;
  era: McpEra;
  params: unknown;
  fault: { reason: ProtocolErrorReason; supported?: readonly string[] | undefined };
}): string {
  const { idRaw, era, fault } = options;
  if (era === "legacy") return protocolErrorLine(idRaw, INVALID_PARAMS_CODE, MISSING_ERA_METADATA);
  const meta = isObject(options.params) && isObject(options.params._meta) ? options.params._meta : {};
  const requested = meta[PROTOCOL_VERSION_KEY];
  return modernRefusalLine(idRaw, fault.reason, {
    ...(typeof requested === "string" ? { requested } : {}),
    ...(fault.supported ? { supported: fault.supported } : {}),
  });
}

/**
 * `ProtocolSession`, one per stdio connection: a legacy request is let through only if it is
 * `initialize` or a legacy `initialize` came before on this connection. Nothing of a modern
 * request is kept; the next request is classified afresh.
 */
export interface EraSession {
  decide(request: EraRequest): EraDecision;
  readonly legacyInitialized: boolean;
}

export function createEraSession(): EraSession {
  let legacyInitialized = false;
  return {
    decide(request) {
      const decision = classifyRequest(request);
      if ("era" in decision && decision.era === "legacy") {
        if (request.method === "initialize") legacyInitialized = true;
        else if (!legacyInitialized) return { refusal: protocolErrorLine(request.idRaw, INVALID_PARAMS_CODE, MISSING_ERA_METADATA) };
      }
      return decision;
    },
    get legacyInitialized() {
      return legacyInitialized;
    },
  };
}

/**
 * The era state of one connection to a driver of this version: a stdio connection from 0.28 checks
 * every request's era; before 0.28, and over HTTP (legacy-only), there are no eras to follow
 * (undefined). Every front that answers as the driver does opens its connections' state here.
 */
export function connectionEra(driverVersion: string, transport: "mcp" | "http"): EraSession | undefined {
  return transport === "mcp" && speaksModern(driverVersion) ? createEraSession() : undefined;
}

/** Methods whose modern result carries the cache hints (`server/discover`, `*\/list`, `*\/read`). */
export function carriesCacheHints(method: string): boolean {
  return method === "server/discover" || method.endsWith("/list") || method.endsWith("/read");
}

/**
 * `finish_response` on a raw result object: `resultType: "complete"`, the server's identity in
 * `_meta` (other `_meta` keys kept; a `_meta` that is not an object replaced), `ttlMs: 0` and
 * `cacheScope: "private"` where the method takes them. Keys go where serde_json's sorted map puts
 * them; every other byte of the result is kept. Anything but an object is returned as it came.
 */
export function finishModernResult(rawResult: string, method: string, driverVersion: string): string {
  if (!rawResult.trimStart().startsWith("{")) return rawResult;
  const serverInfo = `{"name":"cua-driver","version":${serdeString(driverVersion)}}`;
  const metaRaw = rawMember(rawResult, "_meta");
  const meta = metaRaw?.trimStart().startsWith("{") ? setSortedMember(metaRaw, SERVER_INFO_KEY, serverInfo) : `{${serdeString(SERVER_INFO_KEY)}:${serverInfo}}`;
  let out = setSortedMember(rawResult, "resultType", '"complete"');
  out = setSortedMember(out, "_meta", meta);
  if (carriesCacheHints(method)) {
    out = setSortedMember(out, "ttlMs", "0");
    out = setSortedMember(out, "cacheScope", '"private"');
  }
  return out;
}

/** A whole response line finished for the modern era: a result gets the envelope, an error is left as it is. */
export function finishModernLine(line: string, method: string, driverVersion: string): string {
  let span: { start: number; end: number } | undefined;
  try {
    span = objectSpans(line).get("result");
  } catch {
    return line;
  }
  if (!span) return line;
  return spliceSpan(line, span, finishModernResult(line.slice(span.start, span.end), method, driverVersion));
}

/**
 * A response line recorded in the modern era, as the same driver answers a legacy request: the
 * envelope `finish_response` added taken off again (only a result whose `_meta` names the server
 * carries one). Every other line is returned as it came.
 */
export function legacyLine(line: string): string {
  let span: { start: number; end: number } | undefined;
  try {
    span = objectSpans(line).get("result");
  } catch {
    return line;
  }
  if (!span) return line;
  const result = line.slice(span.start, span.end);
  if (!result.startsWith("{")) return line;
  const meta = rawMember(result, "_meta");
  if (meta === undefined || !meta.startsWith("{") || !objectSpans(meta).has(SERVER_INFO_KEY)) return line;
  const rest = removeMembers(meta, [SERVER_INFO_KEY]);
  const drop = ["resultType", "ttlMs", "cacheScope", ...(objectSpans(rest).size === 0 ? ["_meta"] : [])];
  let out = removeMembers(result, drop);
  if (!drop.includes("_meta")) out = setSortedMember(out, "_meta", rest);
  return spliceSpan(line, span, out);
}

/** The driver's error response, `data` after `code` and `message` and omitted when absent (`RpcError`). */
export function protocolErrorLine(idRaw: string | undefined, code: number, message: string, dataRaw?: string): string {
  const data = dataRaw === undefined ? "" : `,"data":${dataRaw}`;
  return `{"jsonrpc":"2.0","id":${idRaw ?? "null"},"error":{"code":${code},"message":${serdeString(message)}${data}}}`;
}

/** `params` without the protocol's `_meta`: what a request is, whatever era carried it. */
export function withoutProtocolMeta(params: unknown): unknown {
  if (!isObject(params) || !("_meta" in params)) return params;
  const { _meta: _dropped, ...rest } = params;
  return rest;
}

// a string, or an integer serde_json reads as i64/u64 (not `1.5`, `1e2`, `true`, `{}`)
function validRequestId(idRaw: string | undefined): boolean {
  if (idRaw === undefined) return false;
  if (idRaw.startsWith('"')) return true;
  if (!/^-?(0|[1-9]\d*)$/.test(idRaw)) return false;
  const n = BigInt(idRaw);
  return n >= -(2n ** 63n) && n < 2n ** 64n;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
