/**
 * One `cua-driver mcp` connection of the runtime in process, answered line by line: what `probe
 * --driver sdk:V` asks for the MCP eras (src/transports/mcp/probe-eras.ts) — the stand-in that `serve
 * --driver sdk:V --transport mcp` mounts, so the probe sees what a client of it sees.
 */
import type { SdkDriver } from "#src/runtime/sdk-types.js";
import { sdkMcpStandIn } from "./mcp-direct.js";
import { toolNames } from "./tool-names.js";

export async function sdkMcpLines(driver: SdkDriver): Promise<(line: string) => Promise<string | undefined>> {
  const [metadata, listToolsJson] = await Promise.all([driver.metadata(), driver.listToolsJson()]);
  const connection = sdkMcpStandIn({
    driver,
    version: metadata.driverVersion,
    protocolVersion: metadata.mcpProtocolVersion,
    listToolsJson,
    names: toolNames(listToolsJson),
  }).open();
  return async (line) => {
    const reply = await connection.send(line);
    return reply.type === "answer" ? reply.answer : undefined;
  };
}
