import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../../test/helpers/run-cli.js";
import { withHostToolsRaw } from "#src/transports/mcp/wire/host-tools.js";
import { renderMcpConfig } from "#src/transports/cli/wire/render-mcp-config.js";
import { checkedAt, updateStateFor } from "#src/driver/update-check.js";
import { checkForUpdateResult, renderCheckUpdate } from "./update-check.js";

const fixture = (rel: string) => readFileSync(path.join(repoRoot, "test/fixtures", rel), "utf8");

describe("check-update", () => {
  it("an available update: text names it and the release notes; --json carries the install line; exit 0", () => {
    const state = updateStateFor({ version: "0.21.0", latest: "0.22.0", checkedAt: checkedAt("2026-11-29T23:51:32.233Z") });
    expect(renderCheckUpdate({ state, json: false })).toEqual({
      stdout:
        "Current: 0.21.0\nLatest:  0.22.0\n\nUpdate available. Run `cua-driver update --apply` to install.\nRelease notes: https://github.com/trycua/cua/releases/tag/cua-driver-rs-v0.22.0\n",
      stderr: "",
      exitCode: 0,
    });
    const json = renderCheckUpdate({ state, json: true });
    expect(JSON.parse(json.stdout)).toMatchObject({
      checked_at: "2026-11-29T23:51:32Z",
      install_command: "curl -fsSL https://cua.ai/driver/install.sh | bash",
      update_available: true,
    });
    expect(checkForUpdateResult(state)).toContain('"text":"Update available: cua-driver 0.22.0 (you have 0.21.0)."');
  });

  it("the latest release: up to date", () => {
    const state = updateStateFor({ version: "0.21.0", latest: "0.21.0", checkedAt: "2026-01-01T00:00:00Z" });
    expect(renderCheckUpdate({ state, json: false }).stdout).toBe("Current: 0.21.0\nLatest:  0.21.0\n\nYou're on the latest release.\n");
    expect(checkForUpdateResult(state)).toContain('"text":"Up to date (cua-driver 0.21.0)."');
  });
});

describe("the binary's host tools", () => {
  it("the runtime's 0.21.0 tools/list plus check_for_update is the binary's tools/list, byte for byte", () => {
    const runtime = fixture("tool-lists/tools-list-0.21.0.json").trimEnd();
    const binary = fixture("reference/cua-driver/reconstructed/mcp/tools-list.linux.0.21.0.result.json").trimEnd();
    expect(withHostToolsRaw(runtime)).toBe(binary);
    expect(withHostToolsRaw(binary)).toBe(binary);
  });
});

describe("mcp-config", () => {
  it("prints each client's wiring around the binary path", () => {
    expect(renderMcpConfig({ client: "hermes", binary: "/opt/cua-driver" }).stdout).toBe(
      '# paste under mcp_servers in ~/.hermes/config.yaml,\n# then run /reload-mcp inside Hermes:\nmcp_servers:\n  cua-driver:\n    command: "/opt/cua-driver"\n    args: ["mcp"]\n',
    );
    expect(renderMcpConfig({ client: "pi", binary: "/b" }).stdout).toContain('instead:\n\n/b list_apps\n/b click  \'{"pid": 1234, "x": 100, "y": 200}\'\n');
    expect(
      renderMcpConfig({ client: "zcode", binary: "/b" }).stdout.endsWith(
        '{\n  "mcpServers": {\n    "cua-driver": {\n      "args": [\n        "mcp"\n      ],\n      "command": "/b",\n      "type": "stdio"\n    }\n  }\n}\n',
      ),
    ).toBe(true);
  });
});
