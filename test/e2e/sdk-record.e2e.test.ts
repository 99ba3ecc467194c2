// Records from the real runtime on a throwaway X desktop (Xvfb + at-spi + openbox + gtk3-demo),
// then replays the cassette to the same harness. Skips loudly when the desktop packages are missing.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startDesktop } from "#src/desktop/desktop.js";
import { repoRoot, runCli } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { skipWithout } from "../helpers/system-packages.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const skip = await skipWithout("desktop", "record --desktop (real runtime under Xvfb)");
const harness = path.join(repoRoot, "scripts", "record-fixtures.harness.mjs");

describe.skipIf(skip)("record --driver sdk --desktop (real runtime under Xvfb)", () => {
  it("records the gtk3-demo flow over the CLI with source sdk, redaction and a deduplicated frame, and it replays", { timeout: 90_000 }, async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    const recorded = await runCli(["record", "--driver", "sdk:0.21.0", "--desktop", "--out", out, "--", process.execPath, harness, "cli"]);
    expect(recorded.exitCode, String(recorded.stderr)).toBe(0);
    expect(recorded.stderr).toContain("old token: refused stale_element_token");
    // The runtime's X clipboard thread complains on fd 1 if the X server stops first (the harness's stdout).
    expect(String(recorded.stdout)).not.toMatch(/process_server_req|X11 server closed/);
    const lines = (await readFile(path.join(out, "cassette.jsonl"), "utf8")).trim().split("\n");
    const header = JSON.parse(lines[0]!) as { driver: { source: string; version: string; location: string; probe_sha256: string } };
    expect(header.driver).toMatchObject({ source: "sdk", version: "0.21.0", location: "sdk:@trycua/cua-driver@0.21.0" });
    // The probe is taken on the recording's own runtime instance and pinned by the header.
    const probeBytes = await readFile(path.join(out, "probe.json"));
    expect(header.driver.probe_sha256).toBe(createHash("sha256").update(probeBytes).digest("hex"));
    const probe = JSON.parse(probeBytes.toString("utf8")) as { driver: unknown; tools_list: { tools: unknown[] }; metadata: { driverVersion: string } };
    expect(probe.driver).toMatchObject({ source: "sdk", location: "sdk:@trycua/cua-driver@0.21.0", version: "0.21.0" });
    expect([probe.tools_list.tools.length, probe.metadata.driverVersion]).toEqual([59, "0.21.0"]);
    const events = lines
      .slice(1)
      .map((l) => JSON.parse(l) as { argv: string[]; stdout: string; stderr: string; exit_code: number | null; files?: Record<string, { ref: string }> });
    const tools = events.map((e) => (e.argv[0] === "call" ? e.argv[1] : e.argv[0]));
    expect(tools).toEqual([
      "--version",
      "manifest",
      "--version",
      "start_session",
      "list_windows",
      "get_window_state",
      "type_text",
      "list_windows",
      "get_window_state",
      "click",
      "list_windows",
      "get_window_state",
      "press_key",
      "click",
      "get_window_state",
      "verify_state",
      "set_window_frame",
      "list_windows",
      "get_window_state",
      "end_session",
      "click",
      "start_session",
      "list_windows",
      "get_window_state",
    ]);
    expect(events[5]!.files?.["--screenshot-out-file"]?.ref).toMatch(/^frames\/[0-9a-f]{64}\.png$/);
    expect(events[12]!.stdout).toContain('"code": "background_unavailable"');
    expect(events[13]!.stdout).toContain('"code": "stale_element_token"');
    // The daemon's ended-session guard (docs/reference/cua-driver-contract.md §3.4), not the runtime's refusal on stdout.
    expect([events[20]!.stdout, events[20]!.exit_code]).toEqual(["", 1]);
    expect(events[20]!.stderr).toMatch(/^session '[^']+' has ended; tool call 'click' was rejected\. Call start_session with this id to revive it/);
    expect(events[21]!.stdout).toContain('"revived": true');
    expect(lines.join("\n")).not.toContain("hello from cua-contract");
    expect(events[6]!.argv[2]).toMatch(/«redacted:text:[0-9a-f]{8}»/);

    const replayed = await runCliInProcess(["replay", out, "--ignore", "text", "--fail-on-unused", "--", process.execPath, harness, "cli"]);
    expect(replayed.exitCode, String(replayed.stderr)).toBe(0);
    expect(replayed.stderr).toContain("unmatched 0");
  });

  it("records one MCP stdio session line by line", { timeout: 90_000 }, async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    const recorded = await runCli(["record", "--driver", "sdk", "--desktop", "--out", out, "--", process.execPath, harness, "mcp"]);
    expect(recorded.exitCode, String(recorded.stderr)).toBe(0);
    const events = (await readFile(path.join(out, "cassette.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { kind: string; dir?: string; line?: string });
    expect(events.filter((e) => e.kind === "mcp_open")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ kind: "mcp_close", exit_code: 0 });
    const replies = events.filter((e) => e.kind === "mcp" && e.dir === "s2c").map((e) => e.line!);
    expect(replies[0]).toMatch(/^\{"jsonrpc":"2.0","id":1,"result":\{"capabilities":\{"tools":\{\}\},"instructions":/);
    expect(replies.some((r) => r.includes('\\"code\\":\\"stale_element_token\\"') || r.includes('"code":"stale_element_token"'))).toBe(true);
  });

  it("desktop start/stop leaves no process behind", { timeout: 30_000 }, async () => {
    const desktop = await startDesktop();
    const pids = desktop.processes.map((p) => p.pid);
    expect(desktop.display).toMatch(/^:9\d$/);
    await desktop.stop();
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });
});

describe("desktop command errors", () => {
  it("names a missing program and exits 3; stop without state exits 2", async () => {
    const start = await runCliInProcess(["desktop", "start", "--app", "no-such-program-xyz"]);
    expect(start.exitCode).toBe(3);
    // Other desktop programs may be missing too (a machine without the packages): the app is named either way.
    expect(start.stderr).toMatch(/cannot start a desktop: (\S+, )*no-such-program-xyz not found/);
    const stop = await runCliInProcess(["desktop", "stop", "/nonexistent-desktop-state"]);
    expect(stop.exitCode).toBe(2);
    expect(stop.stderr).toContain("no desktop state in /nonexistent-desktop-state");
  });
});
