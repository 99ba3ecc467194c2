import { describe, expect, it } from "vitest";
import { isUserError } from "#src/errors.js";
import { createRecordFaults } from "./record-faults.js";

describe("record --faults with the field kinds", () => {
  it("refuses no_effect (exit 2 naming the rule): only replay can answer a call as delivered without its effect", () => {
    let error: unknown;
    try {
      createRecordFaults({
        plan: {
          rules: [
            { match: {}, fault: { kind: "stall", ms: 10 } },
            { match: {}, fault: { kind: "no_effect" } },
          ],
        },
        events: () => [],
      });
    } catch (e) {
      error = e;
    }
    expect(isUserError(error)).toBe(true);
    expect((error as Error).message).toMatch(/rules\[1\]\.fault\.kind: a no_effect fault cannot be recorded\. Inject no_effect on replay/);
  });

  it("a stall lasts across the recorded calls, as on replay", () => {
    const faults = createRecordFaults({ plan: { rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "stall", ms: 500 } }] }, events: () => [] });
    const cli = (tool: string) => ({ transport: "cli" as const, method: "call", tool, args: {} });
    expect(faults.select(cli("list_windows"))).toBeUndefined();
    expect(faults.select(cli("click"))?.fault).toEqual({ kind: "stall", ms: 500 });
    expect(faults.select(cli("list_windows"))?.fault).toEqual({ kind: "stall", ms: 500 });
  });
});
