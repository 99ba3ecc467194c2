import { appendFileSync, cpSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { readCassetteSync, readFrame } from "#src/cassette/index.js";
import { prepareCassette } from "./engine/prepared.js";
import { recordedOutcome } from "./engine/tool-result.js";
import { loadReplayCassette } from "./load.js";
import { createReplayer } from "./replayer.js";

const DIRS = [
  "recordings/gtk3-demo-cli",
  "recordings/gtk3-demo-mcp",
  "test/fixtures/recordings-synthetic/mcp-session",
  "examples/fail-closed-python/recordings/mcp",
];

/** Everything an exchange holds, answers and outcome included, as plain JSON. */
const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

describe("loadReplayCassette: answers read on demand", () => {
  for (const dir of DIRS) {
    it(`${dir}: the exchanges, their answers (frames spliced) and outcomes are those of the events prepared in memory`, () => {
      const full = path.join(repoRoot, dir);
      const loaded = loadReplayCassette(full);
      const events = readCassetteSync(full);
      const eager = prepareCassette({
        events: events.events,
        frame: (ref) => readFrame(events, ref).toString("base64"),
        ...(loaded.tools ? { tools: loaded.tools } : {}),
      });
      expect(loaded.prepared.exchanges.length).toBe(eager.exchanges.length);
      expect(loaded.prepared.exchanges.map(plain)).toEqual(eager.exchanges.map(plain));
      expect(loaded.prepared.exchanges.map((x) => plain(recordedOutcome(x)))).toEqual(eager.exchanges.map((x) => plain(recordedOutcome(x))));
      expect([...loaded.prepared.classified]).toEqual([...eager.classified]);
    });
  }

  it("keeps no event and no answer text: the file is read again when an answer is served", async () => {
    await using dir = await tmpDir();
    cpSync(path.join(repoRoot, "recordings/gtk3-demo-mcp"), dir.path, { recursive: true });
    const loaded = loadReplayCassette(dir.path);
    const x = loaded.prepared.exchanges.find((e) => e.request.tool === "list_windows")!;
    // the answer is an accessor on the exchange's rpc, not a string the exchange holds
    expect(Object.getOwnPropertyDescriptor(x.rpc!, "response")).toBeUndefined();
    expect(x.rpc!.response).toContain('"windows"');
    // the file changed since it was scanned: nothing is served from it
    appendFileSync(path.join(dir.path, "cassette.jsonl"), "\n");
    const other = loaded.prepared.exchanges.find((e) => e.request.tool === "get_window_state")!;
    expect(() => other.rpc!.response).toThrow(/cassette\.jsonl changed while it was in use \(it was written to since it was read\)/);
  });

  it("events are read in full only when asked for", () => {
    const loaded = loadReplayCassette(path.join(repoRoot, "recordings/gtk3-demo-mcp"));
    const descriptor = Object.getOwnPropertyDescriptor(loaded, "events");
    expect(typeof descriptor?.get).toBe("function");
    expect(loaded.cassette.events.length).toBe(readCassetteSync(path.join(repoRoot, "recordings/gtk3-demo-mcp")).events.length);
  });

  it("a replayer over the loaded cassette serves the recorded bytes with the images spliced back", async () => {
    const dir = path.join(repoRoot, "recordings/gtk3-demo-mcp");
    const loaded = loadReplayCassette(dir);
    const r = createReplayer({ cassette: loaded });
    await r.call("start_session", { session: "fixture-harness" });
    const x = loaded.prepared.exchanges.find((e) => e.request.tool === "get_window_state")!;
    const reply = (await r.call("get_window_state", x.request.args as Record<string, unknown>)) as { content: Array<{ type: string; data?: string }> };
    const image = reply.content.find((b) => b.type === "image")!;
    const events = readCassetteSync(dir);
    const ref = events.events.flatMap((e) => ("frames" in e ? (e.frames ?? []) : [])).find((f) => f.field === "line")!.ref;
    expect(image.data).toBe(readFrame(events, ref).toString("base64"));
  });
});
