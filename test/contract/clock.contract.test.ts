// The Clock contract (src/driver/port.ts), run against both clocks: the virtual one (replays,
// fuzzing: time moves only when something sleeps) and the system one (process transports, where a
// harness's own timeouts must really fire).
import { describe, expect, it } from "vitest";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import type { Clock } from "#src/driver/port.js";
import { systemClock } from "#src/runtime/clock-system.js";

const CLOCKS: { name: string; make: () => Clock /** how far past the asked time a sleep may end */; slackMs: number }[] = [
  { name: "virtual", make: () => createVirtualClock(), slackMs: 0 },
  { name: "system", make: () => systemClock, slackMs: 250 },
];

describe.each(CLOCKS)("Clock: $name", ({ make, slackMs }) => {
  it("never goes backwards", async () => {
    const clock = make();
    let last = clock.now();
    for (let i = 0; i < 50; i++) {
      if (i % 10 === 0) await clock.sleep(1);
      const now = clock.now();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
  });

  it("a sleep of N ms moves now() on by at least N ms (and not much more)", async () => {
    const clock = make();
    const before = clock.now();
    await clock.sleep(40);
    const moved = clock.now() - before;
    // timers may fire up to a millisecond early by the clock they are measured with
    expect(moved).toBeGreaterThanOrEqual(39);
    expect(moved).toBeLessThanOrEqual(40 + slackMs);
  });

  it("a sleep whose signal is already aborted resolves at once, without throwing", async () => {
    const clock = make();
    const before = clock.now();
    await expect(clock.sleep(10_000, AbortSignal.abort())).resolves.toBeUndefined();
    expect(clock.now() - before).toBeLessThan(1_000);
  });

  it("a sleep aborted while it waits resolves, without throwing", async () => {
    const clock = make();
    const controller = new AbortController();
    const slept = clock.sleep(10_000, controller.signal);
    controller.abort();
    await expect(slept).resolves.toBeUndefined();
  });
});
