import type { DriverContract } from "#src/schema/driver-contract.js";
import type { GateFailure } from "#src/contract/baseline.js";
import type { Change } from "#src/contract/change.js";
import { resourceOfPointer } from "#src/contract/era-diff.js";

/**
 * Whether a change reaches something the contract names: a tool it lists, an enforcement adapter
 * whose operations include one of them, the capability vocabulary when it names capabilities, or
 * the driver as a whole (argv, protocol, versions).
 */
export function inContractScope(change: Change, contract: DriverContract): boolean {
  if (change.tool !== undefined) return change.tool in contract.tools;
  // an era or a skill resource reaches a contract that names it; a digest, one that pins it
  if (change.kind === "era_removed") return (contract.driver.mcp_eras ?? []).includes(String(change.from));
  if (change.kind === "skill_removed" || change.kind === "resource_removed") return String(change.from) in (contract.skills ?? {});
  if (change.kind === "digest_changed") return contract.skills?.[resourceOfPointer(change.path) ?? ""]?.digest !== undefined;
  if (change.covers !== undefined) return change.covers.some((tool) => tool in contract.tools);
  // The capability vocabulary's version matters to a contract that names capabilities.
  if (change.kind === "tools_list_version_changed" && change.path === "/capability_version") {
    return Object.values(contract.tools).some((need) => (need.capabilities ?? []).length > 0);
  }
  return true;
}

/** The failed contract item that states the same fact as a diff change, if there is one. */
export function contractItemOf(change: Change, failed: ReadonlyMap<string, GateFailure>): GateFailure | undefined {
  const tool = change.tool ?? "";
  const last = change.path?.split("/").pop() ?? "";
  const candidates: string[] = [];
  switch (change.kind) {
    case "annotation_changed":
      candidates.push(`contract:annotation:${tool}:${last}`);
      break;
    case "contract_version_changed":
      candidates.push("contract:contract_version:contract_version");
      break;
    case "protocol_version_changed":
      candidates.push("contract:protocol_version:protocolVersion");
      break;
    case "era_removed":
      candidates.push(`contract:mcp_era:${String(change.from)}`);
      break;
    case "skill_removed":
    case "resource_removed":
      candidates.push(`contract:skill:${String(change.from)}`);
      break;
    case "digest_changed":
      candidates.push(`contract:skill_digest:${resourceOfPointer(change.path) ?? ""}`);
      break;
    case "tool_removed":
    case "tool_renamed":
      candidates.push(`contract:tool:${tool}`);
      break;
    case "output_schema_removed":
      candidates.push(`contract:output_schema:${tool}:outputSchema`);
      break;
    case "capability_removed":
      candidates.push(`contract:capability:${tool}:${String(change.from)}`);
      break;
    case "property_removed":
      if (change.path === `/inputSchema/properties/${last}`) candidates.push(`contract:input:${tool}:${last}`);
      break;
    case "argv_removed":
    case "subcommand_removed": {
      const m = /^\/subcommands\/([^/]+)(?:\/args\/([^/]+))?$/.exec(change.path ?? "");
      if (m) {
        const prefix = `contract:argv:${m[1]}${m[2] ? ` ${m[2]}` : ""}`;
        candidates.push(...[...failed.keys()].filter((id) => id === prefix || id.startsWith(`${prefix} `)));
      }
      break;
    }
    default:
      break;
  }
  for (const id of candidates) {
    const hit = failed.get(id);
    if (hit) return hit;
  }
  return undefined;
}
