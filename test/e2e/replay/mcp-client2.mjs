// A harness on the official MCP client 2.x: connects to `cua-driver mcp` (the shim under `replay`)
// with the negotiation mode in argv[2] (`legacy`, `auto` or a version to pin), lists the tools,
// calls get_config, then each tool named in argv[3..] (arguments `{}`), and prints
// {era, version, tools, config} as one JSON line. With MCP_TEE set, the server's lines are also
// written to that file as they came (./tee-mcp.mjs).
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [arg = "legacy", ...more] = process.argv.slice(2);
const mode = arg === "legacy" || arg === "auto" ? arg : { pin: arg };
const tee = process.env.MCP_TEE;
const server = tee
  ? { command: process.execPath, args: [fileURLToPath(new URL("tee-mcp.mjs", import.meta.url)), tee, "cua-driver", "mcp"] }
  : { command: "cua-driver", args: ["mcp"] };
const client = new Client({ name: "client2-harness", version: "1" }, { versionNegotiation: { mode } });
await client.connect(new StdioClientTransport({ ...server, stderr: "ignore" }));
const tools = await client.listTools();
const config = await client.callTool({ name: "get_config", arguments: {} });
for (const name of more) await client.callTool({ name, arguments: {} });
console.log(
  JSON.stringify({ era: client.getProtocolEra(), version: client.getNegotiatedProtocolVersion(), tools: tools.tools.length, config: config.structuredContent }),
);
await client.close();
