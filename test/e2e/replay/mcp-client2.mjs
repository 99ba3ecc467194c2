// A harness on the official MCP client 2.x: connects to `cua-driver mcp` (the shim under `replay`)
// with the negotiation mode in argv[2] (`legacy`, `auto` or a version to pin), lists the tools,
// calls get_config, and prints {era, version, tools, config} as one JSON line.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const arg = process.argv[2] ?? "legacy";
const mode = arg === "legacy" || arg === "auto" ? arg : { pin: arg };
const client = new Client({ name: "client2-harness", version: "1" }, { versionNegotiation: { mode } });
await client.connect(new StdioClientTransport({ command: "cua-driver", args: ["mcp"], stderr: "ignore" }));
const tools = await client.listTools();
const config = await client.callTool({ name: "get_config", arguments: {} });
console.log(
  JSON.stringify({ era: client.getProtocolEra(), version: client.getNegotiatedProtocolVersion(), tools: tools.tools.length, config: config.structuredContent }),
);
await client.close();
