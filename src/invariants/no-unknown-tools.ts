import { KNOWN_TOOLS_0_21 } from "#src/driver/catalogue.js";
import { REFERENCE_DRIVER_VERSION } from "#src/driver/reference-version.js";
import { quote, requestsOf } from "./classify.js";
import { violation } from "./evidence.js";
import type { Invariant, Violation } from "./types.js";

// A tool the driver does not list is refused as "permission denied" (docs/reference/cua-driver-contract.md §0.5), so a
// harness calling one is built against a different driver than the one it runs with.
export const noUnknownTools: Invariant = {
  id: "no-unknown-tools",
  statement:
    "The harness never calls a tool the recorded driver does not list (by its probe, else its recorded tool lists, else the catalogue's list for its version).",
  check(entries, options) {
    const known = new Set(options.knownTools ?? KNOWN_TOOLS_0_21);
    const out: Violation[] = [];
    const reported = new Set<string>();
    for (const r of requestsOf(entries)) {
      if (r.tool === undefined || known.has(r.tool) || reported.has(r.tool)) continue;
      reported.add(r.tool);
      const source = options.knownTools ? (options.knownToolsSource ?? "the given tool list") : `the cua-driver ${REFERENCE_DRIVER_VERSION} tool list`;
      out.push(violation("no-unknown-tools", `${quote(r)} calls ${r.tool}, which ${source} does not list`, [r]));
    }
    return out;
  },
};
