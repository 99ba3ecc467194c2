// `record --faults PLAN`: the fault is injected while recording from a driver, the harness's real
// recovery reaches the driver and lands in the cassette, and replaying the cassette with the same
// plan gives the harness the same bytes (its output is compared byte for byte). Against the fake
// driver here; against the real runtime in record-faults-desktop-{cli,mcp}.e2e.test.ts.
import { describe } from "vitest";
import { FAKE, TIMEOUT_S, matrix } from "./record-faults/matrix.js";

// each run mostly waits on the harness's timeouts: the fake driver's runs go side by side
describe.concurrent("record --faults against the fake driver (test double)", () => {
  // every kind alone over MCP stdio; over per-call CLI, where each call starts the driver anew (the
  // costly transport to record), every kind in the combined plans the desktop runs use, each plan
  // holding two click faults and a read fault
  matrix({ inProcess: { driver: FAKE, driverSource: "synthetic" } }, ["mcp"], { timeoutS: TIMEOUT_S.fake, plans: "each" });
  matrix({ inProcess: { driver: FAKE, driverSource: "synthetic" } }, ["cli"], { timeoutS: TIMEOUT_S.fake, plans: "combined" });
});
