import { execa } from "execa";
import { readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";

// The fake 0.21.0 driver must print what the reference says the real one prints.
const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const ref = path.resolve(repoRoot, "test/fixtures/reference/cua-driver");
const refText = (p: string) => readFileSync(path.join(ref, p), "utf8");
const run = (args: string[], env: Record<string, string> = {}, input?: string) =>
  execa(fake, args, { reject: false, env, stripFinalNewline: false, ...(input !== undefined ? { input } : { stdin: "ignore" }) });

describe("fake cua-driver 0.21.0 against the reference", () => {
  it("prints --version, list-tools, help and describe exactly", async () => {
    expect((await run(["--version"])).stdout).toBe(refText("reconstructed/cli/version.stdout.txt"));
    expect((await run(["list-tools"])).stdout).toBe(refText("reconstructed/cli/list-tools.linux.stdout.txt"));
    expect((await run(["describe", "click"])).stdout).toBe(refText("reconstructed/cli/describe-click.linux.stdout.txt"));
    expect((await run(["describe", "get_window_state"])).stdout).toBe(refText("reconstructed/cli/describe-get_window_state.linux.stdout.txt"));
    const unknown = await run(["describe", "nope"]);
    expect([unknown.exitCode, unknown.stderr.split("\n")[0]]).toEqual([64, "Unknown tool: nope"]);
  });

  it("prints the manifest with its own path, compact and pretty", async () => {
    const compact = (await run(["manifest"])).stdout;
    const expected = refText("reconstructed/cli/manifest.stdout.txt");
    const example = JSON.parse(expected).binary_path as string;
    expect(compact).toBe(expected.split(JSON.stringify(example)).join(JSON.stringify(fake)));
    const pretty = (await run(["manifest", "--pretty"])).stdout;
    expect(pretty).toBe(refText("reconstructed/cli/manifest--pretty.stdout.txt").split(JSON.stringify(example)).join(JSON.stringify(fake)));
    expect((await run(["manifest"], { FAKE_CUA_DRIVER_MANIFEST: "drop-arg:call:--screenshot-out-file" })).stdout).not.toContain(
      '"--screenshot-out-file","type":"string"},{"description":"Select an explicit daemon socket',
    );
    const nonJson = (await run(["manifest"], { FAKE_CUA_DRIVER_MANIFEST: "non-json" })).stdout;
    expect(() => JSON.parse(nonJson)).toThrow();
  });

  it("prints call results as the reconstructed examples, refusals exit 0, screenshot to a real PNG", async () => {
    const cases: Array<[string[], string]> = [
      [["call", "get_screen_size", "{}"], "get_screen_size.stdout.txt"],
      [["call", "list_windows", "{}"], "list_windows.stdout.txt"],
      [["call", "get_desktop_state", "{}"], "get_desktop_state_inline_png.stdout.txt"],
      [["call", "get_config", "{}"], "get_config.stdout.txt"],
      [["call", "click", '{"pid":1,"element_token":"s00000001:0"}'], "click_stale_element_token.stdout.txt"],
    ];
    for (const [args, file] of cases) {
      const r = await run(args, args[1] === "get_config" || args[2]?.includes("s00000001") ? { FAKE_CUA_DRIVER_DISPLAY: "none" } : {});
      expect([args, r.exitCode, r.stdout]).toEqual([args, 0, refText(`reconstructed/cli/call-examples/${file}`)]);
    }
    const png = path.join(os.tmpdir(), `fake-shot-${process.pid}.png`);
    const shot = await run(["call", "get_desktop_state", "{}", "--screenshot-out-file", png]);
    expect(shot.stdout).toBe(refText("reconstructed/cli/call-examples/get_desktop_state_inline_png.screenshot-out-file.stdout.txt"));
    expect(readFileSync(png).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    rmSync(png, { force: true });
  });

  it("fails like the real CLI: daemon down exit 1, bad JSON exit 2, unknown tool exit 1", async () => {
    const down = await run(["call", "get_screen_size", "{}"], { FAKE_CUA_DRIVER_DAEMON: "down", HOME: "/home/u" });
    expect([down.exitCode, down.stdout, down.stderr]).toEqual([
      1,
      "",
      "Cua Driver daemon is not running on /home/u/.cache/cua-driver/cua-driver.sock.\nStart it first with: cua-driver serve --socket /home/u/.cache/cua-driver/cua-driver.sock\n",
    ]);
    const bad = await run(["call", "get_screen_size", "{oops"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^error: positional JSON arg to 'cua-driver call' did not parse: /);
    const unknown = await run(["call", "no_such_tool", "{}"]);
    expect([unknown.exitCode, unknown.stderr]).toEqual([1, "Permission denied: tool 'no_such_tool' has no reviewed risk classification\n"]);
  });

  it("speaks MCP stdio: exact initialize and tools/list bytes, -32601, notifications unanswered", async () => {
    const input = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":3,"method":"ping"}',
      "{oops",
      '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}',
      "",
    ].join("\n");
    const r = await run(["mcp"], {}, input);
    const lines = r.stdout.split("\n");
    expect(r.exitCode).toBe(0);
    expect(lines[0]).toBe(refText("reconstructed/mcp/initialize.linux.response.jsonl").trim());
    expect(lines[1]).toBe(refText("reconstructed/mcp/tools-list.linux.0.21.0.response.jsonl").trim());
    const errors = JSON.parse(refText("reconstructed/mcp/error-responses.examples.json")) as Array<{ response_line: string | null }>;
    expect(lines.slice(2, 5)).toEqual([errors[1]!.response_line, errors[0]!.response_line, errors[5]!.response_line]);
    expect(lines).toHaveLength(6);
  });

  it("hangs on a subcommand or MCP method when told to, and waits when asked to", async () => {
    const hung = execa(fake, ["manifest"], { reject: false, env: { FAKE_CUA_DRIVER_HANG: "manifest" } });
    const mcp = execa(fake, ["mcp"], { reject: false, env: { FAKE_CUA_DRIVER_HANG: "mcp:tools/call" } });
    mcp.stdin?.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_screen_size","arguments":{}}}\n',
    );
    await new Promise((r) => setTimeout(r, 800));
    expect(hung.exitCode).toBe(null);
    expect(mcp.exitCode).toBe(null);
    hung.kill("SIGKILL");
    mcp.kill("SIGKILL");
    const m = await mcp;
    expect(
      String(m.stdout)
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l).id),
    ).toEqual([1]);
    const started = Date.now();
    await run(["call", "get_screen_size", "{}"], { FAKE_CUA_DRIVER_DELAY_MS: "300" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});
