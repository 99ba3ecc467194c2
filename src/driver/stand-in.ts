/**
 * The one seam of everything that answers like cua-driver (docs/architecture.md, decision 0210):
 * a stand-in takes a request as the harness sent it, in the transport's own raw form, and gives
 * back what cua-driver would, bytes and all. Replay implements it (one per transport, from a
 * cassette), and so do the live binary and the live runtime. Recording is a tap on a stand-in
 * (`tap`); what carries the bytes (the shim's socket, stdio, an HTTP server, msw, a Driver call in
 * process) only mounts a stand-in: it opens connections and moves requests and answers, and
 * decides nothing. A connection is what the transport has one of per conversation: one
 * `cua-driver call` process (a single request), one `cua-driver mcp` process, one HTTP
 * connection, one in-process Driver.
 *
 * | transport  | request                    | answer                     |
 * | ---------- | -------------------------- | -------------------------- |
 * | cli        | `CliRequest` (argv, stdin) | `CliResponse` (stdout, stderr, exit code) |
 * | mcp, http  | one JSON-RPC line / body   | one JSON-RPC line / body   |
 * | inprocess  | `{ tool, args }`           | `Reply`                    |
 */
import type { ReplayTransport } from "#src/schema/replay-log.js";

export interface StandIn<Request, Answer> {
  readonly transport: ReplayTransport;
  /** A new conversation (logged as a stream where the transport has streams). */
  open(): StandInConnection<Request, Answer>;
}

export interface StandInConnection<Request, Answer> {
  /** One request, answered as the driver would answer it on this connection. Never rejects for a driver outcome. */
  send(request: Request): Promise<StandInReply<Answer>>;
  /** The harness ended the conversation (stdin closed, connection closed). Idempotent. */
  close(): void;
}

export type StandInReply<Answer> =
  | { type: "answer"; answer: Answer }
  /** The driver answers nothing to this (a JSON-RPC notification). */
  | { type: "none" }
  /** The driver never answers this, and (one request at a time) nothing after it on this connection. */
  | { type: "hang" }
  /** Read behind a request that never returned: logged for the invariants, never answered. */
  | { type: "unanswered" }
  /**
   * The connection ended without an answer: the driver exited with `code` after writing `stderr`,
   * or dropped it; `cause` when the driver could not be reached at all (its process did not start).
   */
  | { type: "closed"; code: number | null; stderr?: string; cause?: Error };

/** A stand-in whose connections answer each request on their own, with nothing held between requests. */
export function perRequestStandIn<Request, Answer>(
  transport: ReplayTransport,
  answer: (request: Request) => Promise<StandInReply<Answer>>,
): StandIn<Request, Answer> {
  return { transport, open: () => ({ send: answer, close() {} }) };
}

/**
 * What a tap sees of one request: called as the request goes in, it returns what to call with the
 * reply, which the harness gets only once that has finished (a recording is written before the
 * answer goes back).
 */
export type Tap<Request, Answer> = (request: Request) => (reply: StandInReply<Answer>) => void | Promise<void>;

/** `standIn`, with every request and its reply shown to `sink` on the way through; what the harness gets is unchanged. */
export function tap<Request, Answer>(standIn: StandIn<Request, Answer>, sink: Tap<Request, Answer>): StandIn<Request, Answer> {
  return {
    transport: standIn.transport,
    open() {
      const connection = standIn.open();
      return {
        async send(request) {
          const seen = sink(request);
          const reply = await connection.send(request);
          await seen(reply);
          return reply;
        },
        close: () => connection.close(),
      };
    },
  };
}
