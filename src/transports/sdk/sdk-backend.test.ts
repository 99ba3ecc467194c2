import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tmpDir } from "../../../test/helpers/tmp-dir.js";
import type { CliRequest } from "#src/shim-server/backend.js";
import { createSdkBackend, sdkBackendFor, type SdkBackend } from "./sdk-backend.js";

let backend: SdkBackend;
beforeAll(async () => {
  backend = await createSdkBackend({ version: "0.21.0" });
});

function request(argv: string[], extra: Partial<CliRequest> = {}): CliRequest {
  return { argv, stdin: Buffer.alloc(0), cwd: process.cwd(), env: { PATH: "" }, signal: new AbortController().signal, ...extra };
}

async function run(argv: string[], extra: Partial<CliRequest> = {}) {
  const r = await backend.cli(request(argv, extra));
  return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), exitCode: r.exitCode };
}

describe("SDK backend, per-call CLI", () => {
  it("--version names the runtime's version", async () => {
    expect(await run(["--version"])).toEqual({ stdout: "cua-driver 0.21.0\n", stderr: "", exitCode: 0 });
    expect(backend.location.source).toBe("project");
  });

  it("call prints the runtime's structuredContent pretty and sorted", async () => {
    const direct = JSON.parse((await backend.driver.callTool("get_config", "{}")).rawJson) as { structuredContent: object };
    const out = await run(["call", "get_config", "{}"]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(`${JSON.stringify(direct.structuredContent, null, 2)}\n`);
  });

  it("reads the arguments from stdin when there is no positional, and an implicit call works", async () => {
    const viaStdin = await run(["call", "get_config"], { stdin: Buffer.from('\uFEFF{"_x":1}') });
    const implicit = await run(["get_config", "{}"]);
    expect(viaStdin.stdout).toBe(implicit.stdout);
    expect(implicit.stdout).toContain('"max_image_dimension": 1568');
  });

  it("a positional that is not JSON exits 2 with serde's message", async () => {
    const out = await run(["call", "get_config", "{pid:1}"]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr.split("\n")[0]).toBe("error: positional JSON arg to 'cua-driver call' did not parse: key must be a string at line 1 column 2");
    expect(out.stderr).toContain("       received: {pid:1}\n");
  });

  it("unclassified names are permission denied (exit 1); classified unregistered ones are unknown (exit 64)", async () => {
    expect(await run(["call", "no_such_tool"])).toEqual({
      stdout: "",
      stderr: "Permission denied: tool 'no_such_tool' has no reviewed risk classification\n",
      exitCode: 1,
    });
    expect(await run(["call", "debug_window_info"])).toEqual({ stdout: "", stderr: "Unknown tool: debug_window_info\n", exitCode: 64 });
  });

  it("non-object arguments fail in the runtime and exit 1", async () => {
    const out = await run(["call", "get_config", "[1]"]);
    expect(out).toEqual({ stdout: "", stderr: "invalid arguments for get_config: arguments must be a JSON object\n", exitCode: 1 });
  });

  it("manifest reports the shim found on PATH as the binary", async () => {
    await using dir = await tmpDir();
    const { writeFile, chmod } = await import("node:fs/promises");
    const shim = path.join(dir.path, "cua-driver");
    await writeFile(shim, "#!/bin/sh\n");
    await chmod(shim, 0o755);
    const out = await run(["manifest"], { env: { PATH: dir.path } });
    const manifest = JSON.parse(out.stdout) as { binary_path: string; binary_version: string; mcp_invocation: { command: string } };
    expect(manifest.binary_version).toBe("0.21.0");
    expect(manifest.mcp_invocation.command).toBe(await (await import("node:fs/promises")).realpath(shim));
  });

  it("--screenshot-out-file writes the image (last wins); a failed write goes to stderr and the exit stays 0", async () => {
    // A driver double that answers with the bytes the 0.21.0 runtime returned for a real zoom.
    const captured = await readFile(new URL("../../../test/fixtures/sdk-oracles/captured/32_zoom_jpeg.result.json", import.meta.url), "utf8");
    const double = { ...backend.driver, callTool: async () => ({ rawJson: captured, text: "", images: [], isError: false, degraded: false }) };
    const replaying = sdkBackendFor({
      driver: double,
      metadata: backend.metadata,
      listToolsJson: await backend.driver.listToolsJson(),
      location: backend.location,
    });
    await using dir = await tmpDir();
    const ok = await replaying.cli(request(["call", "zoom", "{}", "--screenshot-out-file", "z.jpg"], { cwd: dir.path }));
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout.toString()).not.toContain("screenshot_png_b64");
    const image = JSON.parse(captured) as { content: { type: string; data?: string }[] };
    expect(await readFile(path.join(dir.path, "z.jpg"))).toEqual(Buffer.from(image.content.find((c) => c.type === "image")!.data!, "base64"));
    const bad = await replaying.cli(request(["call", "zoom", "{}", "--screenshot-out-file", "missing/z.jpg"], { cwd: dir.path }));
    expect(bad.exitCode).toBe(0);
    expect(bad.stderr.toString()).toBe("--screenshot-out-file: failed to write missing/z.jpg: No such file or directory (os error 2)\n");
  });

  it("subcommands it does not emulate exit 64 and say so", async () => {
    const out = await run(["sessions", "list"]);
    expect(out.exitCode).toBe(64);
    expect(out.stderr).toContain("does not emulate `cua-driver sessions`");
  });
});

// docs/reference/cua-driver-contract.md §3.4: `cua-driver call` goes through a daemon that rejects calls on ended sessions before dispatch.
describe("SDK backend, ended-session guard", () => {
  const guardText = (label: string, tool: string) =>
    `session '${label}' has ended; tool call '${tool}' was rejected. Call start_session with this id to revive it before issuing further actions, or use a new session id.\n`;

  // The real runtime, with every call it receives counted.
  async function counted() {
    const seen: string[] = [];
    const driver = {
      ...backend.driver,
      callTool: (tool: string, args: string, o?: { signal: AbortSignal }) => (seen.push(tool), backend.driver.callTool(tool, args, o)),
    };
    const guarded = sdkBackendFor({ driver, metadata: backend.metadata, listToolsJson: await backend.driver.listToolsJson(), location: backend.location });
    const runOn = async (argv: string[], extra: Partial<CliRequest> = {}) => {
      const r = await guarded.cli(request(argv, extra));
      return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), exitCode: r.exitCode };
    };
    return { seen, run: runOn };
  }

  it("after end_session, a call naming the label gets the daemon's guard (stderr, exit 1) without reaching the runtime", async () => {
    const { seen, run: on } = await counted();
    expect((await on(["call", "start_session", '{"session":"guard-a"}'])).exitCode).toBe(0);
    const ended = await on(["call", "end_session", '{"session":"guard-a"}']);
    expect([JSON.parse(ended.stdout), ended.exitCode]).toEqual([{ active: false, session: "guard-a" }, 0]);
    expect(seen).toEqual(["start_session", "end_session"]);
    expect(await on(["call", "click", '{"session":"guard-a","pid":1,"element_index":0}'])).toEqual({
      stdout: "",
      stderr: guardText("guard-a", "click"),
      exitCode: 1,
    });
    expect(await on(["get_session"], { stdin: Buffer.from('{"session":"guard-a"}') })).toEqual({
      stdout: "",
      stderr: guardText("guard-a", "get_session"),
      exitCode: 1,
    });
    expect(await on(["call", "end_session", '{"session":"guard-a"}'])).toMatchObject({ stderr: guardText("guard-a", "end_session"), exitCode: 1 });
    // Before dispatch: even a classified tool this platform does not register is guarded, not `Unknown tool`.
    expect(await on(["call", "debug_window_info", '{"session":"guard-a"}'])).toMatchObject({ exitCode: 1, stderr: guardText("guard-a", "debug_window_info") });
    expect(seen).toEqual(["start_session", "end_session"]);
    // Other labels and the implicit session are untouched.
    expect((await on(["call", "get_config", '{"session":"guard-b"}'])).exitCode).toBe(0);
    expect((await on(["call", "get_config", "{}"])).exitCode).toBe(0);
  });

  it("start_session revives the label: it reaches the runtime (revived:true) and later calls pass again", async () => {
    const { seen, run: on } = await counted();
    await on(["call", "start_session", '{"session":"guard-c"}']);
    await on(["call", "end_session", '{"session":"guard-c"}']);
    const revived = await on(["call", "start_session", '{"session":"guard-c"}']);
    expect([JSON.parse(revived.stdout).revived, revived.exitCode]).toEqual([true, 0]);
    const state = await on(["call", "get_session", '{"session":"guard-c"}']);
    expect([JSON.parse(state.stdout).state, state.exitCode]).toEqual(["active", 0]);
    expect(seen).toEqual(["start_session", "end_session", "start_session", "get_session"]);
  });

  it("an end_session the runtime answers with isError does not end the label", async () => {
    const refusal =
      '{"content":[{"text":"no","type":"text"}],"isError":true,"structuredContent":{"refusal":{"code":"invalid_argument","message":"no"},"status":"refused"}}';
    const double = { ...backend.driver, callTool: async () => ({ rawJson: refusal, text: "", images: [], isError: true, degraded: false }) };
    const refusing = sdkBackendFor({
      driver: double,
      metadata: backend.metadata,
      listToolsJson: await backend.driver.listToolsJson(),
      location: backend.location,
    });
    expect((await refusing.cli(request(["call", "end_session", '{"session":"guard-d"}']))).exitCode).toBe(0);
    const next = await refusing.cli(request(["call", "get_session", '{"session":"guard-d"}']));
    expect(next.stderr.toString()).toBe("");
  });

  it("each backend keeps its own ended labels, and MCP direct mode (no daemon) still gets the runtime's session_ended refusal", async () => {
    const { run: first } = await counted();
    await first(["call", "start_session", '{"session":"guard-e"}']);
    await first(["call", "end_session", '{"session":"guard-e"}']);
    expect((await first(["call", "get_config", '{"session":"guard-e"}'])).exitCode).toBe(1);
    const other = await counted();
    // The runtime is shared, so the other backend reaches it and gets its refusal on stdout, exit 0.
    const refused = await other.run(["call", "get_config", '{"session":"guard-e"}']);
    expect([JSON.parse(refused.stdout).refusal.code, refused.exitCode, refused.stderr]).toEqual(["session_ended", 0, ""]);
    const sent: string[] = [];
    const handler = backend.mcp({ argv: ["mcp"], cwd: process.cwd(), env: {} }, { send: (l) => sent.push(l), stderr: () => {}, exit: () => {} });
    handler.line('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_config","arguments":{"session":"guard-e"}}}');
    handler.end();
    await expect.poll(() => sent.length).toBe(1);
    expect(JSON.parse(sent[0]!).result.structuredContent.refusal.code).toBe("session_ended");
  });
});

// docs/reference/cua-driver-contract.md §1.7: the texts and exit codes of cua-driver 0.21.0's daemon lifecycle.
describe("SDK backend, serve / status / stop", () => {
  const notRunning = { stdout: "", stderr: "Cua Driver daemon is not running\n", exitCode: 1 };

  it("serve runs until stop names its socket; status reports it running with the runtime's pid", async () => {
    await using dir = await tmpDir();
    const sock = path.join(dir.path, "d.sock");
    expect(await run(["status", "--socket", sock])).toEqual(notRunning);
    expect(await run(["stop", "--socket", sock])).toEqual(notRunning);
    const serving = backend.cli(request(["serve", "--embedded", "--socket", sock, "--no-permissions-gate", "--permission-mode", "bounded"]));
    let ended = false;
    void serving.then(() => (ended = true));
    expect(await run(["status", "--socket", sock])).toEqual({
      stdout: `Cua Driver daemon is running\n  socket: ${sock}\n  pid: ${process.pid}\n`,
      stderr: "",
      exitCode: 0,
    });
    expect(await run(["status", "--socket", path.join(dir.path, "other.sock")])).toEqual(notRunning);
    expect(await run(["serve", "--socket", sock])).toEqual({
      stdout: "",
      stderr: `Cua Driver daemon is already running on ${sock} (pid ${process.pid}). Run \`cua-driver stop\` first.\n`,
      exitCode: 1,
    });
    expect(ended).toBe(false);
    expect(await run(["stop", "--socket", sock])).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const served = await serving;
    expect([served.stdout.toString(), served.stderr.toString(), served.exitCode]).toEqual([
      "",
      `Cua Driver daemon listening on ${sock}\nCua Driver daemon shutting down.\n`,
      0,
    ]);
    expect(await run(["status", "--socket", sock])).toEqual(notRunning);
  });

  it("without --socket uses $HOME/.cache/cua-driver/cua-driver.sock; a killed serve shim ends its daemon", async () => {
    const env = { PATH: "", HOME: "/home/someone" };
    const killer = new AbortController();
    const serving = backend.cli(request(["serve"], { env, signal: killer.signal }));
    const status = await run(["status"], { env });
    expect([status.stdout, status.exitCode]).toEqual([
      `Cua Driver daemon is running\n  socket: /home/someone/.cache/cua-driver/cua-driver.sock\n  pid: ${process.pid}\n`,
      0,
    ]);
    expect(await run(["status", "--socket", "/home/someone/.cache/cua-driver/cua-driver.sock"], { env })).toMatchObject({ exitCode: 0 });
    killer.abort();
    expect(await serving).toMatchObject({ exitCode: null, signal: "SIGTERM" });
    expect(await run(["status"], { env })).toEqual(notRunning);
  });

  it("ends a serve still running when the backend closes", async () => {
    const own = await createSdkBackend({ version: "0.21.0" });
    const serving = own.cli(request(["serve", "--socket", "/tmp/x.sock"]));
    await own.close?.();
    expect((await serving).exitCode).toBe(0);
  });
});

describe("SDK backend, MCP startup", () => {
  function start(argv: string[]) {
    const out = { stderr: "", exit: undefined as number | null | undefined, sent: [] as string[] };
    const handler = backend.mcp(
      { argv, cwd: process.cwd(), env: {} },
      {
        send: (l) => out.sent.push(l),
        stderr: (d) => (out.stderr += d.toString()),
        exit: (c) => (out.exit = c),
      },
    );
    return { out, handler };
  }

  it("refuses serve-only authorization flags with exit 64 before any JSON-RPC", () => {
    const { out } = start(["mcp", "--permission-mode", "unrestricted"]);
    expect(out.exit).toBe(64);
    expect(out.stderr.split("\n")[0]).toBe("cua-driver mcp does not accept --permission-mode; authorization flags belong to `cua-driver serve`.");
    expect(out.sent).toEqual([]);
  });

  it("refuses --direct with --socket (exit 1) and otherwise answers in direct mode", async () => {
    expect(start(["mcp", "--direct", "--socket", "/tmp/x.sock"]).out.exit).toBe(1);
    const { out, handler } = start(["mcp", "--direct"]);
    handler.line('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    handler.end();
    await new Promise((r) => setTimeout(r, 50));
    expect(out.sent).toEqual(['{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Unknown method: ping"}}']);
    expect(out.exit).toBe(0);
  });
});
