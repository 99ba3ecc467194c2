import { setTimeout as sleep } from "node:timers/promises";
import type { Clock } from "#src/driver/port.js";

/** Wall-clock time for process transports (a harness's own timeouts must really fire). */
export const systemClock: Clock = {
  now: () => performance.now(),
  async sleep(ms, signal) {
    try {
      await sleep(ms, undefined, signal ? { signal } : {});
    } catch {
      // aborted: the caller checks its signal
    }
  },
};
