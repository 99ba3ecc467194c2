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
  // The daemon refuses a call on an ended session itself: its guard on stderr, exit 1.
  if (r.status === 1 && /has ended/.test(r.stderr)) return { text: r.stderr };
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
    close: () =>
      new Promise((resolve) => {
        child.stdin.end();
        child.on("close", resolve);
      }),
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

  // A harness that names its session: opened first, named on every call that takes one
  // (list_windows has no session field), ended at the end of the task; a call on the ended
  // session is refused and the session revived.
  const label = "fixture-harness";
  const act = (tool, args, outFile) => call(tool, tool === "list_windows" ? args : { ...args, session: label }, outFile);
  const shot = path.join(work, "window.png");
  const read = async (target) => {
    const state = await act("get_window_state", target, mode === "cli" ? shot : undefined);
    if (mode === "cli" && !(statSync(shot, { throwIfNoEntry: false })?.size > 0)) fail("--screenshot-out-file wrote nothing");
    if (!Array.isArray(state.elements)) fail(`get_window_state: no elements in ${JSON.stringify(state).slice(0, 200)}`);
    return state;
  };
  const buttonBoxes = (state) => state.elements.find((e) => e.label === "Button Boxes") ?? fail(`no "Button Boxes" element in snapshot ${state.snapshot_id}`);

  const opened = await act("start_session", {});
  if (opened.active !== true) fail(`start_session: ${JSON.stringify(opened)}`);
  log(`session ${opened.session} active`);

  const windows = (await act("list_windows", {})).windows ?? [];
  const appPid = Number(process.env.CUA_DESKTOP_APP_PID);
  const win = windows.find((w) => w.pid === appPid) ?? windows[0];
  if (!win) fail("list_windows found no window (is the desktop running?)");
  const target = { pid: win.pid, window_id: win.window_id };
  log(`window ${win.window_id} "${win.title}" of pid ${win.pid}`);
  const first = await read(target);
  log(`snapshot ${first.snapshot_id}: ${first.element_count} elements`);

  // Typed before the click: activating the "Button Boxes" row opens that demo's window, which then holds focus.
  const typed = await act("type_text", { ...target, text: "hello from cua-contract", delivery_mode: "foreground" });
  log(`type_text: effect ${typed.effect ?? typed.code ?? typed.text}`);

  // After each action the harness reads again, and aims from the latest read.
  await act("list_windows", {});
  const second = await read(target);
  const cell = buttonBoxes(second);
  log(`re-read ${second.snapshot_id}; clicking ${cell.element_token}`);
  const click = await act("click", { ...target, element_token: cell.element_token });
  log(`click: effect ${click.effect}, route ${click.route}`);
  const opens = (await act("list_windows", {})).windows ?? [];
  const third = await read(target);
  log(`re-read ${third.snapshot_id}: ${opens.length} windows`);

  const refusal = await act("press_key", { ...target, key: "escape" });
  if (refusal.code !== "background_unavailable") fail(`press_key: expected background_unavailable, got ${JSON.stringify(refusal)}`);
  log("press_key: refused background_unavailable");

  const stale = await act("click", { ...target, element_token: cell.element_token });
  if (stale.refusal?.code !== "stale_element_token") fail(`old token: expected stale_element_token, got ${JSON.stringify(stale)}`);
  log("old token: refused stale_element_token");
  const fourth = await read(target);
  log(`refreshed ${fourth.snapshot_id}`);

  const verified = await act("verify_state", { ...target, expect: [{ window: { exists: true } }] });
  log(`verify_state: ${verified.status}`);

  const frame = await act("set_window_frame", { ...target, x: 120, y: 60, width: 900, height: 680 });
  log(`set_window_frame: effect ${frame.effect}`);
  const after = (await act("list_windows", {})).windows?.find((w) => w.window_id === win.window_id);
  log(`readback: ${after?.width}x${after?.height}+${after?.x}+${after?.y}`);
  const fifth = await read(target);

  const ended = await act("end_session", {});
  log(`end_session: ${JSON.stringify(ended).slice(0, 120)}`);
  const refused = await act("click", { ...target, element_token: buttonBoxes(fifth).element_token });
  if (refused.refusal?.code !== "session_ended" && !/has ended/.test(refused.text ?? ""))
    fail(`click on the ended session: expected session_ended, got ${JSON.stringify(refused)}`);
  log("click on the ended session: refused session_ended");
  const revived = await act("start_session", {});
  if (revived.revived !== true) fail(`start_session after end_session: expected revived, got ${JSON.stringify(revived)}`);
  log("session revived");
  await act("list_windows", {});
  const last = await read(target);
  log(`re-read ${last.snapshot_id}`);

  await mcp?.close();
}

main()
  .catch((error) => {
    if (!process.exitCode) log(`FAIL ${error.message}`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
