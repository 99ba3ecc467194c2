// A harness for `replay` over MCP: starts `cua-driver mcp` (the replaying shim on PATH), sends the
// recorded initialize and one recorded tools/call N times, and writes each call's milliseconds to OUT.
import { readFileSync, writeFileSync } from "node:fs";
import { mcpCalls } from "./mcp-client.mjs";

const [out, n, linesFile] = process.argv.slice(2);
const { initialize, setup, call } = JSON.parse(readFileSync(linesFile, "utf8"));
const times = await mcpCalls({ command: "cua-driver", args: ["mcp"], initialize, setup, call, n: Number(n) });
writeFileSync(out, JSON.stringify(times));
