import { answering } from "../../test/helpers/answering.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createRedactor } from "#src/cassette/redact.js";
import type { CassetteEventInput } from "#src/cassette/writer.js";
import type { CliRequest } from "#src/shim-server/backend.js";
import { recordCliCall } from "#src/transports/cli/tap.js";
import { openMcpStreamRecording } from "#src/transports/mcp/stream-recording.js";
import type { RecordingSink } from "#src/cassette/recording-sink.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// An in-memory sink: the shared recording code only appends events and stores frames.
function memorySink() {
  const events: CassetteEventInput[] = [];
  const frames: string[] = [];
  const sink: RecordingSink = {
    dir: "/nowhere",
    append: (e) => events.push(e) - 1,
    putFrame: (bytes) => {
      const ref = `frames/${String(frames.length).padStart(64, "0")}.png` as const;
      frames.push(Buffer.from(bytes).toString("hex"));
      return ref as never;
    },
    header: () => undefined,
    close: () => {},
  };
  return { sink, events, frames };
}

const request = (argv: string[], cwd = "/"): CliRequest => ({ argv, stdin: Buffer.alloc(0), cwd, env: {}, signal: new AbortController().signal });

describe("recordCliCall (binary and runtime recorders)", () => {
  it("records the answer with the file the call wrote, and leaves out an answer that never reached a driver", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rec-cli-"));
    dirs.push(dir);
    const { sink, events, frames } = memorySink();
    let t = 0;
    const parts = { sink, redactor: createRedactor({ enabled: true }), clock: () => (t += 5) };
    const argv = ["call", "get_window_state", "{}", "--screenshot-out-file", "shot.png"];
    const response = await recordCliCall({
      ...parts,
      request: request(argv, dir),
      live: answering(async () => {
        writeFileSync(path.join(dir, "shot.png"), PNG);
        return { response: { stdout: Buffer.from("{}\n"), stderr: Buffer.alloc(0), exitCode: 0 }, recorded: true };
      }),
    });
    expect(response.stdout.toString()).toBe("{}\n");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: "cli",
      argv,
      exit_code: 0,
      t_ms: 5,
      duration_ms: 5,
      origin: "harness",
      files: { "--screenshot-out-file": { path: "shot.png" } },
    });
    expect(frames).toEqual([PNG.toString("hex")]);

    // The file is still there from the first call: not written by this one, so not stored again.
    await recordCliCall({
      ...parts,
      request: request(argv, dir),
      live: answering(async () => ({ response: { stdout: Buffer.from("{}\n"), stderr: Buffer.alloc(0), exitCode: 0 }, recorded: true })),
    });
    expect(events[1]).not.toHaveProperty("files");
    const unrecorded = await recordCliCall({
      ...parts,
      request: request(["--version"]),
      live: answering(async () => ({ response: { stdout: Buffer.alloc(0), stderr: Buffer.from("no"), exitCode: 127 }, recorded: false })),
    });
    expect([unrecorded.exitCode, events.length]).toEqual([127, 2]);
  });
});

describe("openMcpStreamRecording (binary and runtime recorders)", () => {
  it("opens, redacts an answer by what its request typed, records stderr and closes once", () => {
    const { sink, events } = memorySink();
    const rec = openMcpStreamRecording({ sink, redactor: createRedactor({ enabled: true }), clock: () => 1, stream: 3, argv: ["mcp"] });
    rec.line("c2s", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "type_text", arguments: { text: "hunter2" } } }));
    rec.line("s2c", JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "typed hunter2" }] } }));
    rec.stderr("warning\n");
    rec.close(0);
    rec.close(null, "SIGTERM");
    expect(events.map((e) => e.kind)).toEqual(["mcp_open", "mcp", "mcp", "mcp_stderr", "mcp_close"]);
    expect(JSON.stringify(events)).not.toContain("hunter2");
    const placeholder = /«redacted:text:[0-9a-f]{8}»/.exec(JSON.stringify(events[1]))?.[0];
    expect(placeholder).toBeDefined();
    expect(JSON.stringify(events[2])).toContain(placeholder!);
    expect(events[4]).toMatchObject({ kind: "mcp_close", stream: 3, exit_code: 0 });
  });
});
