import type { ToolInfo } from "#src/driver/port.js";
import { checkContract } from "#src/contract/check.js";
import { DriverContractSchema } from "#src/schema/driver-contract.js";
import type { ProbeSnapshot, ToolEntry } from "#src/schema/probe-snapshot.js";

/** What the contract check found: `ok`, or the gaps that fail it. */
export interface ContractCheckResult {
  ok: boolean;
  gaps: string[];
}

/**
 * The prober's contract check, on what a harness session can see: the driver's tools. CLI argv
 * needs `cua-contract probe` (a binary), so it is left out here; versions the tools list does not
 * carry are reported by the probe, not refused here.
 */
export function checkToolsAgainstContract(options: { contract: unknown; tools: readonly ToolInfo[] }): ContractCheckResult {
  const parsed = DriverContractSchema.safeParse(options.contract);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, gaps: [`the contract is not a driver contract (${issue ? `${issue.path.join(".") || "contract"}: ${issue.message}` : "invalid"})`] };
  }
  const snapshot: ProbeSnapshot = {
    format: "cua-probe",
    version: 1,
    probed_at: "1970-01-01T00:00:00.000Z",
    driver: { source: "synthetic", location: "harness session (tools/list)", platform: "unknown", version: null },
    steps: [{ step: "mcp_tools_list", status: "succeeded", duration_ms: 0 }],
    tools_list: { tools: options.tools as unknown as ToolEntry[] },
  };
  const report = checkContract({ snapshot, contract: { ...parsed.data, argv: {} } });
  return { ok: report.ok, gaps: report.gaps.filter((g) => g.blocking).map((g) => g.message) };
}
