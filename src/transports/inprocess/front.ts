import type { CallOptions, Driver, Reply } from "#src/driver/port.js";
import { perRequestStandIn, type StandIn } from "#src/driver/stand-in.js";

/** One in-process call: what `Driver.call` takes. */
export interface InprocessRequest {
  tool: string;
  args: Record<string, unknown>;
  options?: CallOptions;
}

/**
 * A Driver in process as a stand-in: a Driver-port call in, a `Reply` out. The in-process replayer
 * is the replay's; the runtime's Driver adapter (`transports/sdk/driver.ts`) is the live one. The
 * runtime in process answers calls independently, so a call that never returns resolves, at the
 * caller's deadline, as a timeout outcome and does not hold up the calls after it.
 */
export function inprocessFront(driver: Pick<Driver, "call">): StandIn<InprocessRequest, Reply> {
  return perRequestStandIn("inprocess", async (request) => ({ type: "answer", answer: await driver.call(request.tool, request.args, request.options) }));
}
