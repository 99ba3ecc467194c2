import { describe, expect, it } from "vitest";
import { readCassetteSync } from "#src/cassette/reader.js";
import { openCassetteWriter } from "#src/cassette/writer.js";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { cassetteRows } from "./html/cassette-rows.js";
import { recordingOfEvents } from "./html/recording.js";
import { scanRecording } from "./scan-recording.js";

describe("a cassette read for a report line by line", () => {
  for (const dir of [
    "recordings/gtk3-demo-cli",
    "recordings/gtk3-demo-mcp",
    "test/fixtures/recordings-synthetic/mcp-session",
    "test/fixtures/recordings-synthetic/cli-session",
    "test/fixtures/cassettes/golden-cli",
    "test/fixtures/cassettes/replay-cli-gtk",
    "test/fixtures/cassettes/replay-mcp-gtk",
  ]) {
    it(`${dir}: the rows, times and frames are those of its events in memory`, () => {
      const { cassette, recording } = scanRecording(dir);
      const events = readCassetteSync(dir, { frames: "skip" }).events;
      const fromEvents = recordingOfEvents(events);
      expect(recording.frameRefs).toEqual(fromEvents.frameRefs);
      const times = (r: typeof recording) => events.map((e) => r.tMs.get(e.seq));
      expect(times(recording)).toEqual(events.map((e) => e.t_ms));
      expect(times(fromEvents)).toEqual(events.map((e) => e.t_ms));
      expect(cassetteRows({ recording, cassetteDir: dir, idPrefix: "" })).toEqual(cassetteRows({ events, cassetteDir: dir, idPrefix: "" }));
      expect(cassette.header).toEqual(readCassetteSync(dir, { frames: "skip" }).header);
      // no event was kept: the events are read only when asked for
      expect(typeof Object.getOwnPropertyDescriptor(cassette, "events")?.get).toBe("function");
    });
  }
});

describe("a cassette read line by line builds each exchange again from its two lines", () => {
  it("as the scan paired them: two streams interleaved, answers out of order, an unanswered request, a notification, an error, a recorded fault, HTTP", async () => {
    await using dir = await tmpDir();
    const header = readCassetteSync("recordings/gtk3-demo-mcp", { probe: "skip" }).header;
    const writer = openCassetteWriter({ dir: dir.path, header });
    let t = 0;
    const c2s = (stream: number, message: unknown, extra = {}) =>
      writer.append({ t_ms: (t += 1), origin: "harness", kind: "mcp", stream, dir: "c2s", line: JSON.stringify(message), ...extra });
    const s2c = (stream: number, message: unknown) =>
      writer.append({ t_ms: (t += 1), origin: "harness", kind: "mcp", stream, dir: "s2c", line: JSON.stringify(message) });
    const call = (id: number, name: string, args: object = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    const text = (id: number, body: string) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: body }] } });
    for (const stream of [0, 1]) writer.append({ t_ms: (t += 1), origin: "harness", kind: "mcp_open", stream, argv: ["mcp"] });
    c2s(0, call(1, "list_windows"));
    c2s(1, call(1, "click", { pid: 1, window_id: 2, element_token: "s00000001:1" }));
    c2s(0, { jsonrpc: "2.0", method: "notifications/initialized" });
    c2s(0, call(2, "click", { pid: 1, window_id: 2, element_token: "s00000001:2" }), {
      fault: { kind: "timeout_after_effect", rule: 0, forwarded: true },
    });
    s2c(1, text(1, "✅ Clicked."));
    s2c(0, text(2, "✅ Clicked again."));
    s2c(0, text(1, 'window 2 (pid 1): "A"'));
    c2s(1, call(2, "list_windows"));
    s2c(1, { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "internal" } });
    c2s(0, call(3, "type_text", { pid: 1, window_id: 2, text: "x" }));
    const body = (value: unknown) => JSON.stringify(value);
    writer.append({
      t_ms: (t += 1),
      origin: "harness",
      kind: "http",
      duration_ms: 1,
      request: { method: "POST", path: "/mcp", body: body(call(9, "list_windows")) },
      response: { status: 200, content_type: "application/json", body: body(text(9, "no windows")) },
    });
    writer.close();
    const { recording } = scanRecording(dir.path);
    const events = readCassetteSync(dir.path, { frames: "skip" }).events;
    const rows = cassetteRows({ recording, cassetteDir: dir.path, idPrefix: "" });
    expect(rows).toEqual(cassetteRows({ events, cassetteDir: dir.path, idPrefix: "" }));
    expect(rows.map((r) => [r.label, r.tool, r.epochBefore, r.epochAfter, r.result])).toEqual([
      ["seq 2", "list_windows", 0, 0, 'window 2 (pid 1): "A"'],
      ["seq 3", "click", 0, 1, "✅ Clicked."],
      ["seq 5", "click", 1, 2, "✅ Clicked again."],
      ["seq 9", "list_windows", 2, 2, "JSON-RPC error -32603: internal"],
      ["seq 11", "type_text", 2, 3, "no answer recorded"],
      ["seq 12", "list_windows", 3, 3, "no windows"],
    ]);
    // a page from the middle is the same rows
    expect(recording.exchangesAt(2, 4).map((x) => [x.seq, x.epoch, x.fault?.kind])).toEqual([
      [5, 1, "timeout_after_effect"],
      [9, 2, undefined],
    ]);
  });
});
