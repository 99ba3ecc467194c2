// `record --faults PLAN` against the real runtime on a throwaway desktop, over per-call CLI: each fault
// kind once, the transports taking turns (the other half: record-faults-desktop-mcp.e2e.test.ts).
import { describe } from "vitest";
import { missingDesktopPrograms } from "#src/desktop/programs.js";
import { TIMEOUT_S, matrix } from "./record-faults/matrix.js";

const missing = await missingDesktopPrograms({ app: ["gtk3-demo"] });
if (missing.length > 0) {
  console.warn(`\n!!! SKIPPING record --faults on the desktop: ${missing.join(", ")} not found (see docs/desktop.md).\n`);
}

// one desktop per run, one run at a time in this file
describe.skipIf(missing.length > 0)("record --faults against the real runtime on a throwaway desktop, over cli", () => {
  matrix({ cli: ["--driver", "sdk:0.21.0", "--desktop"] }, ["cli"], { timeoutS: TIMEOUT_S.desktop, plans: "combined-alternating" });
});
