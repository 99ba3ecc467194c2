// The SDK backend behind the real shim: a harness spawns `cua-driver` from PATH and gets answers
// from the in-process @trycua/cua-driver runtime (headless: no display needed for these tools).
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShimServer, type ShimServer } from "#src/shim-server/index.js";
import { runCli } from "../helpers/run-cli.js";
import { createSdkBackend, type SdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { withHostToolsRaw } from "#src/transports/mcp/wire/host-tools.js";

let backend: SdkBackend;
let server: ShimServer;

beforeAll(async () => {
  backend = await createSdkBackend({ version: "0.21.0" });
  server = await startShimServer({ backend });
});
afterAll(async () => {
  await server?.close();
});

const env = () => ({ ...process.env, ...server.env, DISPLAY: "", WAYLAND_DISPLAY: "" });

describe("SDK backend through the cua-driver shim", () => {
  it("answers --version, call, a refusal-free text result and a parse error with the binary's exit codes", async () => {
    const version = await execa("cua-driver", ["--version"], { env: env(), reject: false });
    expect([version.stdout, version.exitCode]).toEqual(["cua-driver 0.21.0", 0]);

    const config = await execa("cua-driver", ["call", "get_config", "{}"], { env: env(), reject: false });
    expect(config.exitCode).toBe(0);
    expect(JSON.parse(config.stdout)).toMatchObject({ platform: "linux", version: "0.21.0", max_image_dimension: 1568 });
    expect(config.stdout).toContain('\n  "capture_mode": "ax",\n');

    const headless = await execa("cua-driver", ["get_screen_size"], { env: env(), reject: false, input: "" });
    expect(headless.exitCode).toBe(0);
    expect(headless.stdout).toMatch(/no usable display detected/);

    const bad = await execa("cua-driver", ["call", "get_config", "{oops"], { env: env(), reject: false });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^error: positional JSON arg to 'cua-driver call' did not parse: key must be a string at line 1 column 2/);
  });

  it("speaks direct-mode MCP over stdio, one response line per request, and ends on EOF", async () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_config","arguments":{}}}',
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}',
    ];
    const mcp = await execa("cua-driver", ["mcp"], { env: env(), input: `${lines.join("\n")}\n`, reject: false, timeout: 20_000 });
    expect(mcp.exitCode).toBe(0);
    const out = mcp.stdout.split("\n");
    expect(out).toHaveLength(4);
    expect(JSON.parse(out[0]!)).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18", serverInfo: { name: "cua-driver", version: "0.21.0" } } });
    // the runtime's inventory, then check_for_update, which the binary registers itself
    expect(out[1]).toBe(`{"jsonrpc":"2.0","id":2,"result":${withHostToolsRaw(await backend.driver.listToolsJson())}}`);
    expect(
      out[1]!.endsWith('"name":"check_for_update","risk":{"class":"r0","enforcement":"metadata_only","operation_sensitive":false,"version":"1"}}]}}'),
    ).toBe(true);
    expect(out[2]).toMatch(/^\{"jsonrpc":"2.0","id":3,"result":\{"content":\[\{"text":"cua-driver-rs configuration"/);
    expect(out[3]).toContain('"structuredContent":{"code":"permission_denied"}');
  });

  it("serve --driver sdk --transport mcp answers live from the runtime on stdio", async () => {
    const input = ['{"jsonrpc":"2.0","id":1,"method":"initialize"}', '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_config"}}'].join(
      "\n",
    );
    const served = await runCli(["serve", "--driver", "sdk:0.21.0", "--transport", "mcp"], { input: `${input}\n` });
    expect(served.exitCode).toBe(0);
    const [init, config] = String(served.stdout).split("\n");
    expect(JSON.parse(init!)).toMatchObject({ id: 1, result: { serverInfo: { version: "0.21.0" } } });
    expect(config).toBe(`{"jsonrpc":"2.0","id":2,"result":${(await backend.driver.callTool("get_config", "{}")).rawJson}}`);
  });
});
