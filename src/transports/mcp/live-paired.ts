import type { StandIn, StandInConnection, StandInReply } from "#src/driver/stand-in.js";
import { parseJsonRpc } from "#src/replay/engine/exchanges.js";
import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";

/** A connection of a live `cua-driver mcp` stream asked request by request. */
export interface PairedMcpConnection extends StandInConnection<string, string> {
  /** Settles when the live stream has exited. */
  readonly ended: Promise<void>;
  /** Whether the live stream has exited (a request now is answered by a close, and never reaches it). */
  readonly exited: boolean;
  /** The harness is gone: the live stream is stopped, nothing more is reported. */
  gone(): void;
}

export interface PairedMcpStandIn extends StandIn<string, string> {
  open(): PairedMcpConnection;
}

/**
 * A live `cua-driver mcp` stream (the binary's or the runtime's, started by `open` on the io it is
 * given) as a stand-in asked one request at a time: a request line goes to the stream and its
 * answer is the line the stream sends with the same id (requests that reuse an id are answered in
 * the order they were sent), with what of it the live stand-in built (`provenance`, the runtime's
 * stand-in says so); a notification is answered by nothing;
 * once the stream has exited every open or later request is answered by a close. Lines the stream
 * sends that answer no open request are dropped; so is its stderr. Closing the connection ends the
 * stream's stdin.
 */
export function pairedMcpStandIn(open: (io: McpIo) => McpSessionHandler): PairedMcpStandIn {
  return {
    transport: "mcp",
    open() {
      // per id, the requests still waiting in the order they were sent: a harness may reuse an id
      // before the first request with it was answered, and the stream answers in order
      const waiting = new Map<string, ((reply: StandInReply<string>) => void)[]>();
      let exit: { code: number | null } | undefined;
      let signalEnded: () => void = () => {};
      const ended = new Promise<void>((resolve) => (signalEnded = resolve));
      const live = open({
        send: (line, provenance) => {
          const id = parseJsonRpc(line)?.idRaw;
          const queue = id !== undefined ? waiting.get(id) : undefined;
          const answer = queue?.shift();
          if (queue?.length === 0) waiting.delete(id!);
          answer?.({ type: "answer", answer: line, ...(provenance ? { provenance } : {}) });
        },
        stderr: () => {},
        exit: (code) => {
          exit = { code };
          const open = [...waiting.values()].flat();
          waiting.clear();
          for (const answer of open) answer({ type: "closed", code });
          signalEnded();
        },
      });
      return {
        ended,
        get exited() {
          return exit !== undefined;
        },
        send: (line) =>
          new Promise((resolve) => {
            if (exit) return resolve({ type: "closed", code: exit.code });
            const id = parseJsonRpc(line)?.idRaw;
            if (id === undefined) {
              live.line(line);
              return resolve({ type: "none" });
            }
            const queue = waiting.get(id);
            if (queue) queue.push(resolve);
            else waiting.set(id, [resolve]);
            live.line(line);
          }),
        close: () => live.end(),
        gone: () => live.gone?.(),
      };
    },
  };
}
