import type { CallOptions, Reply } from "#src/driver/port.js";
import type { Replayer } from "#src/replay/replayer.js";
import type { StandIn } from "#src/driver/stand-in.js";

/** One in-process call: what `Driver.call` takes. */
export interface InprocessRequest {
  tool: string;
  args: Record<string, unknown>;
  options?: CallOptions;
}

/**
 * The in-process replayer as a replay front: a Driver-port call in, a `Reply` out. The runtime in
 * process answers calls independently, so a call that never returns resolves, at the caller's
 * deadline, as a timeout outcome and does not hold up the calls after it.
 */
export function inprocessFront(replayer: Replayer): StandIn<InprocessRequest, Reply> {
  return {
    transport: "inprocess",
    open: () => ({
      send: async (request) => ({ type: "answer", answer: await replayer.call(request.tool, request.args, request.options) }),
      close() {},
    }),
  };
}
