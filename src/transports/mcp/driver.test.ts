import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { captured } from "../../../test/helpers/scripted-driver.js";
import type { ToolResult } from "#src/driver/port.js";
import { classifyActionResult } from "#src/harness/core/verdict.js";
import { createMcpDriver } from "./driver.js";

const FAKE = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");

/** Answers initialize, then dies on the first tools/call without replying (a crashed direct-mode runtime). */
const DIES_MIDCALL = `
const rl = require("node:readline").createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "cua-driver", version: "0.21.0" } } }) + "\\n");
  if (m.method === "tools/call") process.exit(1);
});`;

describe("MCP stdio driver", () => {
  it("speaks to the fake cua-driver 0.21.0 mcp and gets the captured results as sent", async () => {
    await using driver = await createMcpDriver({ command: FAKE, args: ["mcp"] });
    const tools = await driver.listTools();
    expect(tools.find((t) => t.name === "get_window_state")?.annotations?.readOnlyHint).toBe(true);
    const stale = (await driver.call("click", { pid: 1, element_token: "s00000001:0" })) as ToolResult;
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent).toEqual(captured("headless-08_click_stale_element_token").structuredContent);
    const clicked = await driver.call("click", { pid: 24132, window_id: 4194311, element_token: "s00000004:15" });
    expect(classifyActionResult(clicked)).toMatchObject({ decision: "verify_fresh_state", outcome: "unconfirmed" });
  });

  it("a request past its deadline is a timeout value", async () => {
    await using driver = await createMcpDriver({ command: FAKE, args: ["mcp"], env: { FAKE_CUA_DRIVER_HANG: "mcp:tools/call" } });
    expect(await driver.call("click", { pid: 1 }, { timeoutMs: 500 })).toMatchObject({ kind: "timeout", tool: "click" });
  });

  it("a runtime that dies mid-call is daemon_died, not an exception", async () => {
    await using driver = await createMcpDriver({ command: process.execPath, args: ["-e", DIES_MIDCALL] });
    expect(await driver.call("click", { pid: 1 }, { timeoutMs: 5000 })).toMatchObject({ kind: "daemon_died", tool: "click" });
  });
});
