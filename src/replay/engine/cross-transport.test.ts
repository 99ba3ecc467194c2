import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { createReplaySession } from "#src/replay/session.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { answerMcpCall } from "#src/transports/mcp/answer.js";
import { cliRequest, mcpRequest } from "./request.js";

const MCP = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"));
const CLI = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-cli-gtk"));
const session = (cassette: typeof MCP, match?: "strict-order") => createReplaySession({ cassette, clock: createVirtualClock(), ...(match ? { match } : {}) });

describe("one recording answers every transport", () => {
  it("answers `cua-driver call` from an MCP recording, as the CLI prints it", () => {
    const s = session(MCP);
    const windows = answerCli({ decision: s.decide(cliRequest({ argv: ["call", "list_windows"] })), frame: MCP.frame! });
    expect(windows).toMatchObject({ type: "output", exitCode: 0, files: [] });
    expect((windows as { stdout: string }).stdout).toMatch(/^\{\n {2}"windows": \[\n {4}\{\n {6}"app_name": "Gtk3-demo",/);
    const shot = answerCli({
      decision: s.decide(cliRequest({ argv: ["get_window_state", '{"pid":24132,"window_id":4194311,"max_elements":40}', "--screenshot-out-file", "w.png"] })),
      frame: MCP.frame!,
    });
    if (shot.type !== "output") throw new Error("expected output");
    expect(shot.stdout).not.toContain("screenshot_png_b64");
    expect(shot.files).toHaveLength(1);
    expect(Buffer.from(shot.files[0]!.base64, "base64").subarray(1, 4).toString()).toBe("PNG");
  });

  it("answers MCP tools/call from a CLI recording with the structured result rebuilt", () => {
    const s = session(CLI);
    const d = s.decide(mcpRequest({ message: { idRaw: "9", method: "tools/call", params: { name: "get_screen_size", arguments: {} } } }));
    const answer = answerMcpCall({ decision: d, idRaw: "9", transport: "mcp" });
    expect(answer).toMatchObject({ type: "line" });
    const line = (answer as { line: string }).line;
    expect(line.startsWith('{"jsonrpc":"2.0","id":9,"result":{"content":[{"text":')).toBe(true);
    expect(line.endsWith(',"structuredContent":{"height":800,"scale_factor":1.0,"width":1280}}}')).toBe(true);
  });
});

describe("--match strict-order", () => {
  it("serves tool calls only in the recorded order", () => {
    const s = session(MCP, "strict-order");
    const read = (tool: string) => s.decide({ transport: "inprocess", method: "call", tool, args: {} });
    expect(read("list_windows").outcome).toBe("replayed");
    // get_window_state was recorded next; list_windows again is out of order
    const again = read("list_windows");
    expect(again.outcome).toBe("unmatched");
    expect(again.miss?.reason).toMatch(/out of the recorded order/);
    // per-key mode would repeat the read
    const perKey = session(MCP);
    perKey.decide({ transport: "inprocess", method: "call", tool: "list_windows", args: {} });
    expect(perKey.decide({ transport: "inprocess", method: "call", tool: "list_windows", args: {} }).outcome).toBe("replayed");
  });
});

describe("finite subcommands a cassette did not record", () => {
  it("answers --version from the header and list-tools / describe from the recorded tools/list", async () => {
    const { staticCliAnswer } = await import("./static-answers.js");
    const s = session(MCP);
    const driver = { version: "0.21.0", versionOutput: s.versionOutput! };
    const version = staticCliAnswer({ request: cliRequest({ argv: ["--version"] }), exchanges: s.engine.exchanges, driver });
    expect(version).toEqual({
      stdout: "cua-driver 0.21.0\n",
      stderr: "",
      exitCode: 0,
      synthesized: { kind: "version", basis: { source: "header", detail: "version_output" } },
    });
    const list = staticCliAnswer({ request: cliRequest({ argv: ["list-tools"] }), exchanges: s.engine.exchanges, driver });
    expect(list?.synthesized).toMatchObject({ kind: "list_tools", basis: { source: "cassette" } });
    expect(list?.stdout.split("\n")).toContain("hotkey: Press a combination of keys simultaneously, e.g");
    expect(list?.stdout.trim().split("\n")).toHaveLength(60);
    const unknown = staticCliAnswer({ request: cliRequest({ argv: ["describe", "nope"] }), exchanges: s.engine.exchanges, driver });
    expect(unknown).toMatchObject({ exitCode: 64, stdout: "" });
    expect(unknown?.stderr.startsWith("Unknown tool: nope\nAvailable tools:\n  bring_to_front\n")).toBe(true);
    // a CLI cassette that recorded --version answers from its own bytes instead
    expect(
      staticCliAnswer({
        request: cliRequest({ argv: ["--version"] }),
        exchanges: session(CLI).engine.exchanges,
        driver: { version: "0.21.0", versionOutput: "x" },
      }),
    ).toBeUndefined();
  });
});

describe("--screenshot-out-file shape", () => {
  it("prefers the recorded call that used the out-file the same way", () => {
    const s = session(CLI);
    for (const argv of [
      ["call", "click", '{"pid":24132,"window_id":4194311,"element_token":"s00000004:15"}'],
      ["call", "press_key", '{"pid":24132,"window_id":4194311,"key":"escape"}'],
    ]) {
      s.decide(cliRequest({ argv }));
    }
    const toFile = s.decide(cliRequest({ argv: ["call", "get_desktop_state", "--screenshot-out-file", "a.png"] }));
    const inline = s.decide(cliRequest({ argv: ["call", "get_desktop_state"] }));
    expect([toFile.exchange?.seq, inline.exchange?.seq]).toEqual([6, 5]);
  });
});

describe("recorded with --screenshot-out-file, asked without", () => {
  it("merges the recorded file back into stdout as the CLI does", () => {
    const events = CLI.events.filter((e) => e.seq !== 5); // keep only the out-file get_desktop_state
    const s = createReplaySession({ cassette: { ...CLI, events }, clock: createVirtualClock() });
    s.decide(cliRequest({ argv: ["call", "click", '{"pid":24132,"window_id":4194311,"element_token":"s00000004:15"}'] }));
    s.decide(cliRequest({ argv: ["call", "press_key", '{"pid":24132,"window_id":4194311,"key":"escape"}'] }));
    const answer = answerCli({ decision: s.decide(cliRequest({ argv: ["call", "get_desktop_state"] })), frame: CLI.frame! });
    if (answer.type !== "output") throw new Error("expected output");
    const inline = CLI.events.find((e) => e.seq === 5) as { stdout: string; frames?: { at: number; ref: string }[] };
    const expected = inline.stdout.slice(0, inline.frames![0]!.at) + CLI.frame!(inline.frames![0]!.ref) + inline.stdout.slice(inline.frames![0]!.at);
    expect(answer.stdout).toBe(expected);
  });
});
