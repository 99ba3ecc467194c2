/**
 * The one seam of everything that answers like cua-driver (docs/architecture.md, decision 0210):
 * a stand-in takes a request as the harness sent it, in the transport's own raw form, and gives
 * back what cua-driver would, bytes and all. Replay implements it (one per transport, from a
 * cassette), and so do the live binary and the live runtime. Recording is a tap on a stand-in
 * (`tap`), record-missing a fallback of replay on a tapped live stand-in (`fallback`, decision
 * 0270); what carries the bytes (the shim's socket, stdio, an HTTP server, msw, a Driver call in
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
import type { AnswerProvenance } from "#src/schema/cassette.js";
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
  /**
   * `provenance`: what of the answer the stand-in built itself rather than the driver (a live
   * stand-in over the runtime says so; a recording writes it beside the answer, decision 0271).
   */
  | { type: "answer"; answer: Answer; provenance?: AnswerProvenance }
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

/**
 * How `fallback` joins two stand-ins. `Request`/`Answer` are the primary's (what the harness
 * sees); `Asked`/`Got` the secondary's, which may be another form of the same request (a live run
 * under its own ids: `toSecondary` and `fromSecondary` rewrite them both ways).
 */
export interface FallbackOptions<Request, Answer, Asked, Got> {
  /**
   * Whether the primary's reply leaves the request unanswered: the request then goes to the
   * secondary. Replay answers an unmatched request like any other (an error the harness reads:
   * exit 1 with `no recorded answer` on stderr, a JSON-RPC error line), so only the caller can say
   * which replies are a miss.
   */
  whenUnanswered(reply: StandInReply<Answer>, request: Request): boolean;
  /** Whether a request the primary answered goes to the secondary as well (the secondary then follows the whole flow); never, by default. */
  alsoAsk?(reply: StandInReply<Answer>, request: Request): boolean;
  /** The request as the secondary is asked it, given the primary's reply to it. */
  toSecondary(request: Request, primary: StandInReply<Answer>): Asked;
  /**
   * The reply the harness gets once the secondary answered: `unanswered` says whether the primary
   * had no answer (the secondary's answer is then the one to give) or the request was asked as well
   * (the primary's reply is then the one to give, unless the caller keeps the secondary's);
   * `asked` is the request as `toSecondary` gave it.
   */
  fromSecondary(
    reply: StandInReply<Got>,
    o: { request: Request; asked: Asked; primary: StandInReply<Answer>; unanswered: boolean },
  ): StandInReply<Answer> | Promise<StandInReply<Answer>>;
}

/**
 * `primary`, with what it cannot answer asked of `secondary` (`whenUnanswered`). A connection of
 * the result is one connection of each, opened together and closed together, so the secondary
 * sees the same conversation the primary does (one live stream behind one replayed stream).
 * Requests are answered one at a time, in order: the primary first, then the secondary if at all.
 * A stand-in that rejects (a bug, not a driver outcome) rejects the request; the connections stay open.
 */
export function fallback<Request, Answer, Asked, Got>(
  primary: StandIn<Request, Answer>,
  secondary: StandIn<Asked, Got>,
  options: FallbackOptions<Request, Answer, Asked, Got>,
): StandIn<Request, Answer> {
  return {
    transport: primary.transport,
    open() {
      const first = primary.open();
      let second: StandInConnection<Asked, Got>;
      try {
        second = secondary.open();
      } catch (error) {
        first.close();
        throw error;
      }
      let queue: Promise<unknown> = Promise.resolve();
      const answer = async (request: Request): Promise<StandInReply<Answer>> => {
        const reply = await first.send(request);
        const unanswered = options.whenUnanswered(reply, request);
        if (!unanswered && !options.alsoAsk?.(reply, request)) return reply;
        const asked = options.toSecondary(request, reply);
        const got = await second.send(asked);
        return options.fromSecondary(got, { request, asked, primary: reply, unanswered });
      };
      return {
        send(request) {
          const next = queue.then(() => answer(request));
          queue = next.catch(() => undefined);
          return next;
        },
        close() {
          try {
            first.close();
          } finally {
            second.close();
          }
        },
      };
    },
  };
}
