/**
 * The one seam every replay transport implements (docs/architecture.md): a front takes a request
 * as the harness sent it, in the transport's own raw form, and gives back what cua-driver would,
 * bytes and all. A connection is what the transport has one of per conversation: one
 * `cua-driver call` process (a single request), one `cua-driver mcp` process, one HTTP connection,
 * one in-process Driver. What carries the bytes (the shim's socket, stdio, an HTTP server) only
 * opens connections and moves requests and answers; it decides nothing.
 *
 * | transport  | request                    | answer                     |
 * | ---------- | -------------------------- | -------------------------- |
 * | cli        | `CliRequest` (argv, stdin) | `CliResponse` (stdout, stderr, exit code) |
 * | mcp, http  | one JSON-RPC line / body   | one JSON-RPC line / body   |
 * | inprocess  | `{ tool, args }`           | `Reply`                    |
 */
import type { ReplayTransport } from "#src/schema/replay-log.js";

export interface ReplayFront<Request, Answer> {
  readonly transport: ReplayTransport;
  /** A new conversation (logged as a stream where the transport has streams). */
  open(): FrontConnection<Request, Answer>;
}

export interface FrontConnection<Request, Answer> {
  /** One request, answered as the driver would answer it on this connection. Never rejects for a driver outcome. */
  send(request: Request): Promise<FrontReply<Answer>>;
  /** The harness ended the conversation (stdin closed, connection closed). Idempotent. */
  close(): void;
}

export type FrontReply<Answer> =
  | { type: "answer"; answer: Answer }
  /** The driver answers nothing to this (a JSON-RPC notification). */
  | { type: "none" }
  /** The driver never answers this, and (one request at a time) nothing after it on this connection. */
  | { type: "hang" }
  /** Read behind a request that never returned: logged for the invariants, never answered. */
  | { type: "unanswered" }
  /** The driver ended the connection: the process exited with `code` after writing `stderr`, or dropped it. */
  | { type: "closed"; code: number | null; stderr?: string };
