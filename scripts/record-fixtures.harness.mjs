#!/usr/bin/env node
// The flow recorded into recordings/gtk3-demo-{cli,mcp}: a tiny harness that drives gtk3-demo
// through `cua-driver` on PATH, per call (`cli`) or over one MCP stdio session (`mcp`).
// It fails (exit 1) when the driver does not answer the way the flow expects.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const mode = process.argv[2];
if (mode !== "cli" && mode !== "mcp") {
  process.stderr.write("usage: record-fixtures.harness.mjs cli|mcp\n");
  process.exit(2);
}
const driver = process.env.CUA_DRIVER || "cua-driver";
const work = mkdtempSync(path.join(os.tmpdir(), "fixture-harness-"));
const log = (line) => process.stderr.write(`harness: ${line}\n`);
const fail = (why) => {
  log(`FAIL ${why}`);
  process.exitCode = 1;
  throw new Error(why);
};

function cliCall(tool, args, extra = []) {
  const r = spawnSync(driver, ["call", tool, JSON.stringify(args), ...extra], { cwd: work, encoding: "utf8" });
  if (r.status !== 0) fail(`${tool} exited ${r.status}: ${r.stderr}`);
  try {
    return JSON.parse(r.stdout);
  } catch {
    return { text: r.stdout };
  }
}

function mcpClient() {
  const child = spawn(driver, ["mcp"], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = new Map();
  let buffer = "";
  let next = 1;
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) })}\n`);
    });
  return {
    request,
    notify: (method) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`),
    async call(tool, args) {
      const reply = await request("tools/call", { name: tool, arguments: args });
      if (reply.error) fail(`${tool}: JSON-RPC error ${JSON.stringify(reply.error)}`);
      return reply.result.structuredContent ?? { text: reply.result.content?.map((c) => c.text).join("\n") };
    },
    close: () => new Promise((resolve) => (child.stdin.end(), child.on("close", resolve))),
  };
}

async function main() {
  let mcp;
  let call;
  if (mode === "cli") {
    const version = spawnSync(driver, ["--version"], { encoding: "utf8" });
    log(`driver says ${version.stdout.trim()}`);
    call = async (tool, args, outFile) => cliCall(tool, args, outFile ? ["--screenshot-out-file", outFile] : []);
  } else {
    mcp = mcpClient();
    const init = await mcp.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fixture-harness", version: "1" } });
    log(`server ${init.result.serverInfo.name} ${init.result.serverInfo.version}`);
    mcp.notify("notifications/initialized");
    const tools = await mcp.request("tools/list");
    log(`${tools.result.tools.length} tools`);
    call = (tool, args) => mcp.call(tool, args);
  }

  const windows = (await call("list_windows", {})).windows ?? [];
  const appPid = Number(process.env.CUA_DESKTOP_APP_PID);
  const win = windows.find((w) => w.pid === appPid) ?? windows[0];
  if (!win) fail("list_windows found no window (is the desktop running?)");
  const target = { pid: win.pid, window_id: win.window_id };
  log(`window ${win.window_id} "${win.title}" of pid ${win.pid}`);

  const shot = path.join(work, "window.png");
  const state = await call("get_window_state", target, mode === "cli" ? shot : undefined);
  if (mode === "cli" && !(statSync(shot, { throwIfNoEntry: false })?.size > 0)) fail("--screenshot-out-file wrote nothing");
  const cell = state.elements?.find((e) => e.label === "Button Boxes");
  if (!cell) fail(`no "Button Boxes" element in snapshot ${state.snapshot_id}`);
  log(`snapshot ${state.snapshot_id}: ${state.element_count} elements; clicking ${cell.element_token}`);

  // Typed before the click: activating the "Button Boxes" row opens that demo's window, which then holds focus.
  const typed = await call("type_text", { ...target, text: "hello from cua-contract", delivery_mode: "foreground" });
  log(`type_text: effect ${typed.effect ?? typed.code ?? typed.text}`);
  const click = await call("click", { ...target, element_token: cell.element_token });
  log(`click: effect ${click.effect}, route ${click.route}`);


  const refusal = await call("press_key", { ...target, key: "escape" });
  if (refusal.code !== "background_unavailable") fail(`press_key: expected background_unavailable, got ${JSON.stringify(refusal)}`);
  log("press_key: refused background_unavailable");

  const again = await call("get_window_state", { ...target, include_screenshot: false });
  log(`re-snapshot ${again.snapshot_id}`);
  const stale = await call("click", { ...target, element_token: cell.element_token });
  if (stale.refusal?.code !== "stale_element_token") fail(`old token: expected stale_element_token, got ${JSON.stringify(stale)}`);
  log("old token: refused stale_element_token");

  const verified = await call("verify_state", { ...target, expect: [{ window: { exists: true } }] });
  log(`verify_state: ${verified.status}`);

  const frame = await call("set_window_frame", { ...target, x: 120, y: 60, width: 900, height: 680 });
  log(`set_window_frame: effect ${frame.effect}`);
  const after = (await call("list_windows", { pid: win.pid })).windows?.find((w) => w.window_id === win.window_id);
  log(`readback: ${after?.width}x${after?.height}+${after?.x}+${after?.y}`);

  await mcp?.close();
}

main()
  .catch((error) => {
    if (!process.exitCode) log(`FAIL ${error.message}`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
