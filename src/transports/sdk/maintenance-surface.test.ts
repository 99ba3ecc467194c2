import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { tmpDir } from "../../../test/helpers/tmp-dir.js";
import { createSdkBackend, sdkBackendFor, type SdkBackend } from "./sdk-backend.js";
import { pickLatestStable } from "#src/driver/update-check.js";
import type { LatestRelease } from "./update-check.js";

const REFERENCE = path.join(repoRoot, "test/fixtures/reference/cua-driver");
const ROSTER = JSON.parse(readFileSync(path.join(REFERENCE, "upstream/.github/scripts/cua-driver-mcp-compat/expected-tools.json"), "utf8")) as {
  baseTools: string[];
  platformTools: { linux: string[] };
};

let runtime: SdkBackend;
const asked: string[] = [];
const newer: LatestRelease = async (version) => {
  asked.push(version);
  return { latest: "0.22.0" };
};
let backend: SdkBackend;
beforeAll(async () => {
  runtime = await createSdkBackend({ version: "0.21.0" });
  backend = sdkBackendFor({
    driver: runtime.driver,
    metadata: runtime.metadata,
    listToolsJson: await runtime.driver.listToolsJson(),
    location: runtime.location,
    latest: newer,
  });
});

async function run(argv: string[], env: Record<string, string> = { PATH: "" }) {
  const r = await backend.cli({ argv, stdin: Buffer.alloc(0), cwd: process.cwd(), env, signal: new AbortController().signal });
  return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), exitCode: r.exitCode };
}

describe("the sdk backend answers the binary's maintenance surface", () => {
  it("check-update [--json] from the update check it is given", async () => {
    const text = await run(["check-update"]);
    expect(text).toEqual({
      stdout:
        "Current: 0.21.0\nLatest:  0.22.0\n\nUpdate available. Run `cua-driver update --apply` to install.\nRelease notes: https://github.com/trycua/cua/releases/tag/cua-driver-rs-v0.22.0\n",
      stderr: "",
      exitCode: 0,
    });
    const json = await run(["check-update", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      current_version: "0.21.0",
      latest_version: "0.22.0",
      update_available: true,
      error: null,
      cache_hit: false,
    });
    expect(json.stdout).toMatch(/^\{\n {2}"cache_hit": false,\n {2}"checked_at": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",\n/);
    expect(asked).toContain("0.21.0");
  });

  it("--help is the binary's help text", async () => {
    expect((await run(["--help"])).stdout).toBe(readFileSync(path.join(REFERENCE, "reconstructed/cli/help.stdout.txt"), "utf8"));
  });

  it("mcp-config --client NAME names the cua-driver on the caller's PATH", async () => {
    await using bin = await tmpDir();
    writeFileSync(path.join(bin.path, "cua-driver"), "#!/bin/sh\n", { mode: 0o755 });
    const exe = realpathSync(path.join(bin.path, "cua-driver"));
    expect(await run(["mcp-config", "--client", "codex"], { PATH: bin.path })).toEqual({
      stdout: `codex mcp add cua-driver -- ${exe} mcp\n`,
      stderr: "",
      exitCode: 0,
    });
    expect((await run(["mcp-config", "--client=qwen"], { PATH: "" })).stdout).toBe("qwen mcp add cua-driver cua-driver mcp\n");
  });

  it("list-tools lists check_for_update as the binary does", async () => {
    expect((await run(["list-tools"])).stdout).toBe(readFileSync(path.join(REFERENCE, "reconstructed/cli/list-tools.linux.stdout.txt"), "utf8"));
  });

  it("call check_for_update prints the state (exit 0)", async () => {
    const out = await run(["call", "check_for_update", "{}"]);
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ latest_version: "0.22.0", install_command: "curl -fsSL https://cua.ai/driver/install.sh | bash" });
  });

  it("MCP: tools/list is the binary's (the release probe's exact roster, check_for_update last) and tools/call check_for_update answers", async () => {
    const lines: string[] = [];
    const mcp = backend.mcp({ argv: ["mcp"], cwd: process.cwd(), env: {} }, { send: (l) => lines.push(l), stderr: () => {}, exit: () => {} });
    mcp.line('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    mcp.line('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check_for_update","arguments":{}}}');
    await new Promise<void>((resolve) => {
      const poll = () => (lines.length >= 2 ? resolve() : setTimeout(poll, 5));
      poll();
    });
    const list = lines[0]!;
    expect(list).toBe(
      `{"jsonrpc":"2.0","id":1,"result":${readFileSync(path.join(REFERENCE, "reconstructed/mcp/tools-list.linux.0.21.0.result.json"), "utf8").trimEnd()}}`,
    );
    const names = (JSON.parse(list) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect([...names].sort()).toEqual([...ROSTER.baseTools, ...ROSTER.platformTools.linux].sort());
    expect(lines[1]).toMatch(
      /^\{"jsonrpc":"2.0","id":2,"result":\{"content":\[\{"text":"Update available: cua-driver 0.22.0 \(you have 0.21.0\).","type":"text"\}\],"structuredContent":\{"cache_hit":false,/,
    );
  });
});

describe("the update check's release pick", () => {
  it("takes the highest non-draft stable cua-driver-rs tag", () => {
    expect(
      pickLatestStable([
        { tag_name: "cua-driver-rs-v0.21.0" },
        { tag_name: "cua-driver-rs-v0.22.0", draft: true },
        { tag_name: "cua-driver-rs-v0.21.1-nightly.20260101.3" },
        { tag_name: "cua-driver-v9.0.0" },
        { tag_name: "cua-driver-rs-v0.21.10" },
      ]),
    ).toBe("0.21.10");
    expect(pickLatestStable({})).toBeUndefined();
  });
});
