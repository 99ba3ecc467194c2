import type { Driver, Reply } from "#src/driver/port.js";

/**
 * Any in-process Driver (the replay engine's `createReplayer`, a test double) with one guarantee
 * added: a call that throws resolves as a transport error, so the harness still fails closed.
 */
export function inProcessDriver(driver: Driver): Driver {
  return {
    async call(tool, args, options): Promise<Reply> {
      try {
        return await driver.call(tool, args, options);
      } catch (error) {
        return { kind: "transport_error", tool, message: error instanceof Error ? error.message : String(error) };
      }
    },
    listTools: () => driver.listTools(),
  };
}
