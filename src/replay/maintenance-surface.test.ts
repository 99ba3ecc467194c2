import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { startMcpHttpServer } from "#src/transports/http/server.js";
import { createReplayBackend } from "#src/transports/cli/replay-backend.js";
import { loadReplayCassette } from "./load.js";
import { createReplaySession } from "./session.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";

// A CLI recording with an sdk probe (recordings/gtk3-demo-cli): no check-update, --help, mcp-config or tools/list in it.
const CLI = loadReplayCassette(path.join(repoRoot, "recordings/gtk3-demo-cli"));
const REFERENCE = path.join(repoRoot, "test/fixtures/reference/cua-driver");
const ROSTER = JSON.parse(readFileSync(path.join(REFERENCE, "upstream/.github/scripts/cua-driver-mcp-compat/expected-tools.json"), "utf8")) as {
  baseTools: string[];
  platformTools: { linux: string[] };
};
const OFFLINE = "HTTP error: io: failed to lookup address information: Temporary failure in name resolution";
const CHECKED_AT = `${CLI.header!.recorded_at.slice(0, 19)}Z`;

const open = () => createReplaySession({ cassette: CLI, clock: createVirtualClock() });

async function cli(session: ReturnType<typeof open>, argv: string[], env: Record<string, string> = { PATH: "" }) {
  const backend = createReplayBackend({ session });
  const r = await backend.cli({ argv, stdin: Buffer.alloc(0), cwd: repoRoot, env, signal: new AbortController().signal });
  return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), exitCode: r.exitCode };
}

function mcp(session: ReturnType<typeof open>) {
  const sent: string[] = [];
  const waiters: Array<() => void> = [];
  const handler = createReplayBackend({ session }).mcp(
    { argv: ["mcp"], cwd: repoRoot, env: {} },
    {
      send: (line) => {
        sent.push(line);
        waiters.shift()?.();
      },
      stderr: () => {},
      exit: () => {},
    },
  );
  return async (line: string) => {
    const answered = new Promise<void>((resolve) => waiters.push(resolve));
    handler.line(line);
    await answered;
    return sent.at(-1)!;
  };
}

describe("the driver's maintenance surface on replay (per-call CLI)", () => {
  it("check-update --json: the offline state as the binary prints it, exit 1, no network", async () => {
    const session = open();
    const out = await cli(session, ["check-update", "--json"]);
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe(
      `{\n  "cache_hit": false,\n  "checked_at": "${CHECKED_AT}",\n  "current_channel": "stable",\n  "current_version": "0.21.0",\n  "error": "${OFFLINE}",\n  "install_command": null,\n  "latest_version": null,\n  "release_notes_url": null,\n  "selected_channel": "stable",\n  "source": "github_releases",\n  "update_available": false\n}\n`,
    );
    const entry = session.entries().at(-1)!;
    expect(entry).toMatchObject({
      type: "request",
      method: "check-update",
      synthesized: "check_update",
      basis: { source: "reference" },
      result: { exit_code: 1 },
    });
  });

  it("check-update without --json prints the human text", async () => {
    const out = await cli(open(), ["check-update"]);
    expect(out).toEqual({ stdout: `Current: 0.21.0\nLatest:  <unavailable>\n\nCould not reach GitHub: ${OFFLINE}\n`, stderr: "", exitCode: 1 });
  });

  it("--help is the reconstructed help text, logged as synthesized from the reference", async () => {
    const session = open();
    const out = await cli(session, ["--help"]);
    expect(out).toEqual({ stdout: readFileSync(path.join(REFERENCE, "reconstructed/cli/help.stdout.txt"), "utf8"), stderr: "", exitCode: 0 });
    expect(session.entries().at(-1)).toMatchObject({ method: "--help", synthesized: "help", basis: { source: "reference" } });
  });

  it("mcp-config --client NAME wires the harness's own cua-driver; an unknown client exits 2", async () => {
    const session = open();
    expect(await cli(session, ["mcp-config", "--client", "codex"])).toEqual({
      stdout: "codex mcp add cua-driver -- cua-driver mcp\n",
      stderr: "",
      exitCode: 0,
    });
    await using bin = await tmpDir();
    writeFileSync(path.join(bin.path, "cua-driver"), "#!/bin/sh\n", { mode: 0o755 });
    const claude = await cli(session, ["mcp-config", "--client", "claude-code"], { PATH: bin.path });
    const exe = realpathSync(path.join(bin.path, "cua-driver"));
    expect(claude.stdout).toBe(`claude mcp add-json --scope user cua-computer-use '{"args":["mcp"],"command":"${exe}"}'\n`);
    expect((await cli(session, ["mcp-config"])).stdout).toBe(
      '{\n  "mcpServers": {\n    "cua-driver": {\n      "command": "cua-driver",\n      "args": ["mcp"]\n    }\n  }\n}\n',
    );
    expect(await cli(session, ["mcp-config", "--client", "nope"])).toEqual({
      stdout: "",
      stderr: "Unknown client 'nope'. Valid: claude, codex, cursor, antigravity, openclaw, opencode, hermes, pi, prime-agent, qwen, droid, zcode.\n",
      exitCode: 2,
    });
    expect(
      session
        .entries()
        .filter((e) => e.type === "request")
        .map((e) => (e as { synthesized?: string }).synthesized),
    ).toEqual(["mcp_config", "mcp_config", "mcp_config", "mcp_config"]);
  });

  it("call check_for_update prints the state pretty (exit 0: a tool result, not a failed check)", async () => {
    const out = await cli(open(), ["call", "check_for_update", "{}"]);
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ current_version: "0.21.0", error: OFFLINE, update_available: false });
    expect(out.stdout.startsWith('{\n  "cache_hit": false,\n')).toBe(true);
  });

  it("list-tools on a CLI cassette comes from the probe, check_for_update included as the binary lists it", async () => {
    const out = await cli(open(), ["list-tools"]);
    expect(out.stdout).toBe(readFileSync(path.join(REFERENCE, "reconstructed/cli/list-tools.linux.stdout.txt"), "utf8"));
  });
});

describe("the driver's maintenance surface on replay (MCP stdio)", () => {
  it("tools/list from a CLI cassette keeps every top-level field and lists the release probe's exact roster", async () => {
    const session = open();
    const send = mcp(session);
    const line = await send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    // byte for byte the binary's own tools/list (the runtime's inventory, then check_for_update)
    expect(line).toBe(
      `{"jsonrpc":"2.0","id":1,"result":${readFileSync(path.join(REFERENCE, "reconstructed/mcp/tools-list.linux.0.21.0.result.json"), "utf8").trimEnd()}}`,
    );
    const result = (JSON.parse(line) as { result: Record<string, unknown> & { tools: { name: string }[] } }).result;
    expect(Object.keys(result)).toEqual(["capability_version", "enforcement_adapters", "schema_version", "tools"]);
    expect(result.schema_version).toBe("1");
    expect(result.tools.map((t) => t.name).sort()).toEqual([...ROSTER.baseTools, ...ROSTER.platformTools.linux].sort());
    expect(result.tools.at(-1)!.name).toBe("check_for_update");
    expect(session.entries().at(-1)).toMatchObject({ method: "tools/list", synthesized: "tools_list", basis: { source: "probe" } });
  });

  it("tools/call check_for_update answers the offline state as a tool result, not an error", async () => {
    const session = open();
    const line = await mcp(session)('{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"check_for_update","arguments":{}}}');
    expect(line).toBe(
      `{"jsonrpc":"2.0","id":"u","result":{"content":[{"text":"Update check failed: ${OFFLINE}","type":"text"}],"structuredContent":{"cache_hit":false,"checked_at":"${CHECKED_AT}","current_channel":"stable","current_version":"0.21.0","error":"${OFFLINE}","install_command":null,"latest_version":null,"release_notes_url":null,"selected_channel":"stable","source":"github_releases","update_available":false}}}`,
    );
    expect(session.entries().at(-1)).toMatchObject({ method: "call", tool: "check_for_update", kind: "read", synthesized: "check_update" });
  });
});

describe("the driver's maintenance surface on replay (MCP over HTTP)", () => {
  it("tools/list and tools/call check_for_update over HTTP", async () => {
    const session = open();
    const token = "t".repeat(40);
    await using server = await startMcpHttpServer({ session, port: 0, token, host: "127.0.0.1" });
    const post = (body: string) =>
      new Promise<string>((resolve, reject) => {
        const req = http.request(server.url, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } }, (res) => {
          let text = "";
          res.on("data", (d: Buffer) => (text += d.toString()));
          res.on("end", () => resolve(text));
        });
        req.on("error", reject);
        req.end(body);
      });
    const list = JSON.parse(await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')) as {
      result: { tools: { name: string }[]; enforcement_adapters?: unknown };
    };
    expect(list.result.enforcement_adapters).toBeDefined();
    expect(list.result.tools.some((t) => t.name === "check_for_update")).toBe(true);
    const update = JSON.parse(await post('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check_for_update"}}')) as {
      result: { structuredContent: { error: string }; isError?: boolean };
    };
    expect(update.result.structuredContent.error).toBe(OFFLINE);
    expect(update.result.isError).toBeUndefined();
    expect(
      session
        .entries()
        .filter((e) => e.type === "request" && e.transport === "http")
        .map((e) => (e as { synthesized?: string }).synthesized),
    ).toEqual(["tools_list", "check_update"]);
  });
});
