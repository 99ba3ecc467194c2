import { delay, http, HttpResponse, type HttpHandler } from "msw";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ReplayLogEntry, SummaryEntry } from "#src/schema/replay-log.js";
import type { MatchMode } from "#src/replay/engine/matcher.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession, type ReplaySession } from "#src/replay/session.js";
import { systemClock } from "#src/runtime/clock-system.js";
import { mcpFront } from "#src/transports/mcp/front.js";
import { errorLine } from "#src/transports/mcp/wire/envelope.js";

/** What `cassetteHandlers` answers and how: the URL, the token, faults and matching. */
export interface CassetteHandlersOptions {
  /** URL the handlers answer (string pattern or RegExp). Default: any path on 127.0.0.1 / localhost, any port. */
  url?: string | RegExp;
  /** When set, requests must carry `Authorization: Bearer <token>` (401 otherwise), as `cua-driver serve` requires. */
  token?: string;
  faults?: FaultPlan;
  seed?: number;
  match?: MatchMode;
  ignore?: readonly string[];
  onEntry?: (entry: ReplayLogEntry) => void;
}

/** Handlers plus the replay session behind them (log and summary). */
export interface CassetteHandlers extends Array<HttpHandler> {
  session: ReplaySession;
  summary(): SummaryEntry;
}

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;

/**
 * msw handlers that answer MCP-over-HTTP requests (`cua-driver serve` with
 * CUA_DRIVER_RS_MCP_HTTP_PORT) from a cassette, in process, with no port:
 * `setupServer(...cassetteHandlers("recordings/gtk3-demo-mcp"))`.
 */
export function cassetteHandlers(dir: string, options: CassetteHandlersOptions = {}): CassetteHandlers {
  const cassette = loadReplayCassette(dir);
  const session = createReplaySession({
    cassette,
    source: cassette.cassette.file,
    clock: systemClock,
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...(options.onEntry ? { onEntry: options.onEntry } : {}),
  });
  // msw has no connections: the whole handler set is one transport session (stream), and its requests do not queue
  const connection = mcpFront(session, "http", { queued: false }).open();
  const json = (status: number, body: string) => new HttpResponse(body, { status, headers: { "content-type": "application/json" } });
  const handler = http.all(options.url ?? LOOPBACK, async ({ request }) => {
    if (request.headers.get("origin") !== null) return json(403, errorLine(undefined, -32600, "Browser-origin requests are forbidden"));
    if (options.token !== undefined && request.headers.get("authorization") !== `Bearer ${options.token}`) {
      return json(401, errorLine(undefined, -32001, "Authentication required"));
    }
    if (request.method !== "POST") return new HttpResponse(null, { status: 405 });
    const body = await request.text();
    const reply = await connection.send(body);
    if (reply.type === "none") return new HttpResponse(null, { status: 202 });
    if (reply.type === "answer") return json(200, reply.answer);
    if (reply.type === "hang") {
      await delay("infinite");
      return new HttpResponse(null, { status: 504 });
    }
    return HttpResponse.error();
  });
  const handlers = [handler] as CassetteHandlers;
  handlers.session = session;
  handlers.summary = () => session.engine.summary(session.t());
  return handlers;
}
