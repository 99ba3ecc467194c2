// An MCP harness using the official SDK client: starts `cua-driver mcp` from PATH, lists the tools,
// makes the calls given as JSON in argv[2], and prints everything it received as one JSON line.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const calls = JSON.parse(process.argv[2] ?? "[]");
const client = new Client({ name: "replay-e2e", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: "cua-driver", args: ["mcp"], env: process.env, stderr: "inherit" }));
const out = { server: client.getServerVersion(), tools: (await client.listTools()).tools.length, results: [] };
for (const [name, args] of calls) out.results.push(await client.callTool({ name, arguments: args }));
await client.close();
console.log(JSON.stringify(out));
