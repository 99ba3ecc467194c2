/** How much a difference between two driver surfaces matters to a harness built on the first. */
export type Severity = "breaking" | "behavioural" | "additive" | "cosmetic";

export const SEVERITIES: readonly Severity[] = ["breaking", "behavioural", "additive", "cosmetic"];

export type ChangeKind =
  | "tool_removed"
  | "tool_renamed"
  | "tool_added"
  | "description_changed"
  | "property_removed"
  | "property_added"
  | "required_added"
  | "required_removed"
  | "type_removed"
  | "type_added"
  | "enum_value_removed"
  | "enum_value_added"
  | "const_changed"
  | "alternative_removed"
  | "alternative_added"
  | "constraint_added"
  | "constraint_removed"
  | "constraint_changed"
  | "default_changed"
  | "additional_properties_changed"
  | "output_schema_added"
  | "output_schema_removed"
  | "annotation_changed"
  | "risk_changed"
  | "capability_removed"
  | "capability_added"
  | "field_changed"
  | "argv_removed"
  | "argv_added"
  | "argv_type_changed"
  | "subcommand_removed"
  | "subcommand_added"
  | "mcp_invocation_changed"
  | "manifest_schema_version_changed"
  | "protocol_version_changed"
  | "contract_version_changed"
  | "tools_list_version_changed"
  | "adapter_added"
  | "adapter_removed"
  | "adapter_changed"
  | "era_removed"
  | "era_added"
  | "skill_removed"
  | "skill_added"
  | "resource_removed"
  | "resource_added"
  | "digest_changed";

/** One classified difference. `path` is a JSON pointer into the tool entry (or the manifest). */
export interface Change {
  severity: Severity;
  kind: ChangeKind;
  tool?: string;
  path?: string;
  from?: unknown;
  to?: unknown;
  /** The tools a driver-wide change reaches (an enforcement adapter's operations, on either side). */
  covers?: string[];
  message: string;
}

/** Breaking and behavioural changes fail `diff` (and the gate). */
export function isFailing(change: Pick<Change, "severity">): boolean {
  return change.severity === "breaking" || change.severity === "behavioural";
}
