import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderDescribe, renderHelp, renderListTools, renderManifest, renderVersion } from "./render-static.js";

const oracles = new URL("../../../../test/fixtures/sdk-oracles/", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, oracles), "utf8");
const inventory = read("captured/tools-list-0.21.0.json");

describe("static cua-driver subcommands rendered from the runtime inventory", () => {
  it("--version and --help", () => {
    expect(renderVersion("0.21.0").stdout).toBe(read("version.stdout.txt"));
    expect(renderHelp("0.21.0").stdout).toBe(read("help.stdout.txt"));
  });

  it("list-tools matches the binary except for the CLI-host tool check_for_update", () => {
    const expected = read("list-tools.linux.stdout.txt")
      .split("\n")
      .filter((l) => !l.startsWith("check_for_update"))
      .join("\n");
    expect(renderListTools(inventory).stdout).toBe(expected);
  });

  it.each(["click", "get_window_state"])("describe %s", (tool) => {
    expect(renderDescribe(inventory, tool)).toEqual({ stdout: read(`describe-${tool}.linux.stdout.txt`), stderr: "", exitCode: 0 });
  });

  it("describe of an unknown tool lists the tools on stderr and exits 64", () => {
    const out = renderDescribe(inventory, "nope");
    expect(out.exitCode).toBe(64);
    expect(out.stderr).toMatch(/^Unknown tool: nope\nAvailable tools:\n {2}bring_to_front\n {2}browser_click\n/);
  });

  it("manifest, compact and pretty", () => {
    const binaryPath = "/home/user/.cua-driver/packages/releases/0.21.0-x86_64-unknown-linux-gnu/cua-driver";
    expect(renderManifest({ version: "0.21.0", binaryPath, pretty: false }).stdout).toBe(read("manifest.stdout.txt"));
    expect(renderManifest({ version: "0.21.0", binaryPath, pretty: true }).stdout).toBe(read("manifest--pretty.stdout.txt"));
  });
});
