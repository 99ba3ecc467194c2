import { describe, expect, it } from "vitest";
import { callReadsStdin, driverCommand, parseDriverArgv } from "./argv.js";

describe("cua-driver argv", () => {
  it("reads flags anywhere, value flags eating the next token, an unknown first word as an implicit call", () => {
    const p = parseDriverArgv(["--socket", "/s", "click", '{"x":1}', "--screenshot-out-file=o.png"]);
    expect(p).toMatchObject({ subcommand: "call", tool: "click", json: '{"x":1}' });
    expect(p.flags.get("--socket")).toBe("/s");
    expect(p.flags.get("--screenshot-out-file")).toBe("o.png");
    expect(parseDriverArgv([]).subcommand).toBe("mcp");
    expect(parseDriverArgv(["list-tools", "--version"]).subcommand).toBe("version");
    expect(callReadsStdin(parseDriverArgv(["call", "get_config"]))).toBe(true);
  });

  it("narrows to the commands a backend answers", () => {
    expect(driverCommand(["click", "{}", "--screenshot-out-file", "a.png"])).toEqual({
      command: "call",
      tool: "click",
      json: "{}",
      implicit: true,
      screenshotOutFile: "a.png",
    });
    expect(driverCommand(["call", "zoom"])).toEqual({ command: "call", tool: "zoom", json: undefined, implicit: false, screenshotOutFile: undefined });
    expect(driverCommand(["manifest", "-p"])).toEqual({ command: "manifest", pretty: true });
    expect(driverCommand(["describe", "click"])).toEqual({ command: "describe", tool: "click" });
    expect(driverCommand(["status"])).toEqual({ command: "other", name: "status" });
  });
});
