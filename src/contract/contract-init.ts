import {
  DRIVER_CONTRACT_FORMAT,
  DRIVER_CONTRACT_VERSION,
  type ContractAnnotations,
  type ContractTool,
  type DriverContract,
} from "#src/schema/driver-contract.js";
import type { ProbeSnapshot, ToolEntry } from "#src/schema/probe-snapshot.js";

const HINTS = ["readOnlyHint", "idempotentHint", "destructiveHint", "openWorldHint"] as const;

/**
 * A starting contract holding everything the probed driver has: every subcommand and flag,
 * every tool with its capabilities, input properties, annotations and outputSchema presence.
 * The user trims it to what their harness uses.
 */
export function contractFromSnapshot(options: { snapshot: ProbeSnapshot; name?: string; baseline?: string }): DriverContract {
  const { snapshot } = options;
  const version = snapshot.driver.version;
  const series = version ? `${version.split(".").slice(0, 2).join(".")}.x` : "*";
  const contract: DriverContract = {
    format: DRIVER_CONTRACT_FORMAT,
    version: DRIVER_CONTRACT_VERSION,
    name: options.name ?? `cua-driver ${series}`,
    description: `Written by \`cua-contract contract init\` from a probe of cua-driver ${version ?? "(unknown version)"} (${snapshot.driver.source}). Trim it to what your harness uses.`,
    driver: { versions: version ? series : "0.x" },
    tools: {},
  };
  const protocol = snapshot.initialize?.protocolVersion ?? snapshot.metadata?.mcpProtocolVersion;
  if (protocol) contract.driver.protocol_version = protocol;
  if (snapshot.metadata?.contractVersion) contract.driver.contract_version = snapshot.metadata.contractVersion;
  if (snapshot.manifest) {
    contract.argv = Object.fromEntries(snapshot.manifest.subcommands.map((s) => [s.name, s.args.map((a) => a.name)]));
  }
  const entries: ToolEntry[] = snapshot.tools_list?.tools ?? (snapshot.list_tools ?? []).map((name) => ({ name }));
  for (const tool of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
    const need: ContractTool = {};
    if (tool.capabilities?.length) need.capabilities = [...tool.capabilities];
    const props = tool.inputSchema?.properties;
    if (props && typeof props === "object") need.input = Object.keys(props).sort();
    if (tool.annotations) {
      const hints: ContractAnnotations = {};
      for (const hint of HINTS) {
        const value = tool.annotations[hint];
        if (typeof value === "boolean") hints[hint] = value;
      }
      need.annotations = hints;
    }
    if (tool.outputSchema) need.output_schema = true;
    contract.tools[tool.name] = need;
  }
  if (options.baseline) contract.baseline = options.baseline;
  return contract;
}
