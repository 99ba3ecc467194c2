// `record --faults PLAN`: the fault is injected while recording from a driver, the harness's real
// recovery reaches the driver and lands in the cassette, and replaying the cassette with the same
// plan gives the harness the same bytes (its output is compared byte for byte). Against the fake
// driver here; against the real runtime in record-faults-desktop-{cli,mcp}.e2e.test.ts.
import { describe } from "vitest";
import { FAKE, TIMEOUT_S, matrix } from "./record-faults/matrix.js";

// each run mostly waits on the harness's timeouts: the fake driver's runs go side by side
describe.concurrent("record --faults against the fake driver (test double)", () => {
  matrix({ inProcess: { driver: FAKE, driverSource: "synthetic" } }, ["cli", "mcp"], { timeoutS: TIMEOUT_S.fake });
});
