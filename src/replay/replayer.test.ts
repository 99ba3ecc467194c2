import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isTransportFailure, type ToolResult } from "#src/driver/port.js";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { loadReplayCassette } from "./load.js";
import { createReplayer, prepareReplayCassette } from "./replayer.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";

const MCP = path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk");
const CLI = path.join(repoRoot, "test/fixtures/cassettes/replay-cli-gtk");
const PID = 24132;
const WID = 4194311;
const TOKEN = { pid: PID, window_id: WID, element_token: "s00000004:15" };

/** The exact result bytes the fixture recorded for a call, cut out of its JSON-RPC line. */
function recordedResult(id: number): string {
  const line = readFileSync(path.join(MCP, "cassette.jsonl"), "utf8")
    .split("\n")
    .map((l) => (l ? (JSON.parse(l) as { dir?: string; line?: string }) : {}))
    .find((e) => e.dir === "s2c" && typeof e.line === "string" && e.line.startsWith(`{"jsonrpc":"2.0","id":${id},`));
  const text = line!.line!;
  return text.slice(text.indexOf('"result":') + 9, -1);
}

const asResult = (r: unknown) => {
  expect(isTransportFailure(r as never)).toBe(false);
  return r as ToolResult;
};

describe("createReplayer over an MCP cassette", () => {
  it("answers with the recorded bytes, images restored from frames", async () => {
    const cassette = loadReplayCassette(MCP);
    const r = createReplayer({ cassette });
    const windows = asResult(await r.call("list_windows", {}));
    expect(windows.raw).toBe(recordedResult(3));
    const state = asResult(await r.call("get_window_state", { pid: PID, window_id: WID, max_elements: 40 }));
    expect(state.content.map((b) => b.type)).toEqual(["text", "image"]);
    const image = state.content[1] as { data: string };
    expect(Buffer.from(image.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(state.raw).not.toContain('"data":""');
    expect(state.raw!.length).toBeGreaterThan(100_000);
  });

  it("walks epochs: a mutation is consumed once; reads show the state after it", async () => {
    const r = createReplayer({ cassette: loadReplayCassette(MCP) });
    await r.call("list_windows", {});
    const before = asResult(await r.call("get_window_state", { pid: PID, window_id: WID, max_elements: 40 }));
    expect(before.structuredContent?.snapshot_id).toBe("s00000001");
    const click = asResult(await r.call("click", TOKEN));
    expect(click.structuredContent).toEqual({ delivery: { mode: "background" }, effect: "unverifiable", route: "accessibility" });
    expect(r.summary().epoch).toBe(1);
    // the re-snapshot recorded after the click is served in epoch 1
    const after = asResult(await r.call("get_window_state", { pid: PID, window_id: WID, include_screenshot: false, max_elements: 5 }));
    expect(after.structuredContent?.snapshot_id).toBe("s00000005");
    // the same click again is the second recorded click: a stale token refusal, which leaves the epoch alone
    const again = asResult(await r.call("click", TOKEN));
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ refusal: { code: "stale_element_token" } });
    // reads repeat freely; list_windows was recorded in epoch 0 only and is served from there
    const w1 = asResult(await r.call("list_windows", {}));
    const w2 = asResult(await r.call("list_windows", {}));
    expect(w1.raw).toBe(w2.raw);
    const log = r.log().filter((e) => e.type === "request");
    expect(log.map((e) => (e.type === "request" ? [e.tool, e.kind, e.epoch_before, e.epoch_after, e.outcome] : []))).toEqual([
      ["list_windows", "read", 0, 0, "replayed"],
      ["get_window_state", "read", 0, 0, "replayed"],
      ["click", "mutation", 0, 1, "replayed"],
      ["get_window_state", "read", 1, 1, "replayed"],
      // the driver refused it (stale token): it did nothing, so the state stays the one after the first click
      ["click", "mutation", 1, 1, "replayed"],
      ["list_windows", "read", 1, 1, "replayed"],
      ["list_windows", "read", 1, 1, "replayed"],
    ]);
    expect(log[5]).toMatchObject({ fallback_epoch: 0, matched_seq: 6 });
    expect(log[1]).not.toHaveProperty("fallback_epoch");
    expect(r.summary().unused.map((u) => u.tool)).toEqual(["press_key"]);
  });

  it("refuses an unmatched call with the nearest recorded request and the differing path", async () => {
    const r = createReplayer({ cassette: loadReplayCassette(MCP) });
    const reply = await r.call("click", { ...TOKEN, element_token: "s00000004:16" });
    expect(isTransportFailure(reply)).toBe(true);
    expect((reply as { message: string }).message).toContain("differs from #");
    const entry = r.log()[0]!;
    expect(entry).toMatchObject({ outcome: "unmatched", unmatched: { path: "$.element_token", nearest_seq: 10 } });
    expect(r.summary().unmatched).toBe(1);
  });

  it("answers a mutation sent again with its recorded answer, consumed once, and says so in the log", async () => {
    const r = createReplayer({ cassette: loadReplayCassette(MCP) });
    await r.call("click", TOKEN);
    // the recording sent the same click again and the driver refused the old token
    const second = asResult(await r.call("click", TOKEN));
    expect(second.structuredContent?.refusal).toMatchObject({ code: "stale_element_token" });
    await r.call("press_key", { pid: PID, window_id: WID, key: "escape" });
    const epoch = r.summary().epoch;
    const third = asResult(await r.call("click", TOKEN));
    expect(third.raw).toBe(second.raw);
    expect(r.summary().epoch).toBe(epoch);
    const last = r.log().at(-1) as { synthesized?: string; basis?: { source: string; seq?: number; detail?: string }; matched_seq?: number; outcome: string };
    expect(last).toMatchObject({ outcome: "replayed", synthesized: "resent_mutation", matched_seq: 14 });
    expect(last.basis).toMatchObject({ source: "cassette", seq: 14 });
    expect(last.basis?.detail).toMatch(/the same request as #14 click, answered already in epoch 1.*nothing is consumed/);
    expect(r.summary()).toMatchObject({ unmatched: 0, synthesized: 1 });
  });

  it("ignores volatile fields (session label) and named --ignore paths", async () => {
    const r = createReplayer({ cassette: loadReplayCassette(MCP), ignore: ["max_elements"] });
    asResult(await r.call("list_windows", { session: "run-42" }));
    asResult(await r.call("get_window_state", { pid: PID, window_id: WID, max_elements: 999 }));
    expect(r.summary().unmatched).toBe(0);
  });

  it("takes tool kinds from the recorded tools/list", async () => {
    const r = createReplayer({ cassette: loadReplayCassette(MCP) });
    const tools = await r.listTools();
    expect(tools).toHaveLength(60);
    expect(tools.find((t) => t.name === "click")?.annotations?.readOnlyHint).toBe(false);
    expect(r.engine.kindOf({ transport: "inprocess", method: "call", tool: "zoom" })).toBe("read");
  });

  it("hang resolves as a timeout once timeoutMs passes on the virtual clock, instantly", async () => {
    const clock = createVirtualClock();
    const r = createReplayer({
      cassette: loadReplayCassette(MCP),
      clock,
      faults: { rules: [{ match: { tool: "click" }, fault: { kind: "hang" } }] },
    });
    const started = Date.now();
    const reply = await r.call("click", TOKEN, { timeoutMs: 30_000 });
    expect(reply).toMatchObject({ kind: "timeout", tool: "click" });
    expect(clock.now()).toBe(30_000);
    expect(Date.now() - started).toBeLessThan(1000);
    // hang = before effect: the click is still the next mutation
    expect(r.summary().epoch).toBe(0);
    expect(r.log()[0]).toMatchObject({ outcome: "faulted", fault: { kind: "hang", rule: 0 }, duration_ms: 30_000 });
  });
});

describe("createReplayer over a CLI-only cassette", () => {
  it("rebuilds tool results from recorded stdout (structuredContent, merged image, refusal)", async () => {
    const r = createReplayer({ cassette: loadReplayCassette(CLI) });
    const size = asResult(await r.call("get_screen_size", {}));
    expect(size.raw).toBe(
      '{"content":[{"text":"{\\n  \\"height\\": 800,\\n  \\"scale_factor\\": 1.0,\\n  \\"width\\": 1280\\n}","type":"text"}],"structuredContent":{"height":800,"scale_factor":1.0,"width":1280}}',
    );
    // get_desktop_state was recorded after two mutations: it is not served before them
    expect(isTransportFailure(await r.call("get_desktop_state", {}))).toBe(true);
    await r.call("click", TOKEN);
    const refused = asResult(await r.call("press_key", { pid: PID, window_id: WID, key: "escape" }));
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent?.code).toBe("background_unavailable");
    const desktop = asResult(await r.call("get_desktop_state", {}));
    expect(desktop.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(desktop.structuredContent?.screenshot_png_b64).toBeUndefined();
    expect(r.summary()).toMatchObject({ served: 4, unmatched: 1, unused: [] });
  });
});

describe("redacted cassettes", () => {
  it("matches a typed secret against its recorded placeholder, and logs only the placeholder", async () => {
    const { placeholderFor } = await import("#src/cassette/redact.js");
    const placeholder = placeholderFor("text", "hunter2");
    const result =
      '{"content":[{"text":"typed","type":"text"}],"structuredContent":{"delivery":{"mode":"background"},"effect":"unverifiable","route":"accessibility"}}';
    const r = createReplayer({
      cassette: {
        header: {
          format: "cua-cassette",
          version: 1,
          transport: "mcp",
          recorded_at: "2026-11-29T00:00:00Z",
          driver: { version: "0.21.0", platform: "linux-x64", source: "synthetic" },
          recorder: { name: "test", version: "0" },
          redaction: { enabled: true },
        },
        events: [
          {
            seq: 0,
            t_ms: 0,
            kind: "mcp",
            stream: 0,
            dir: "c2s",
            line: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"type_text","arguments":{"text":"${placeholder}"}}}`,
          },
          { seq: 1, t_ms: 1, kind: "mcp", stream: 0, dir: "s2c", line: `{"jsonrpc":"2.0","id":1,"result":${result}}` },
        ],
      },
    });
    const reply = asResult(await r.call("type_text", { text: "hunter2" }));
    expect(reply.raw).toBe(result);
    expect(JSON.stringify(r.log())).not.toContain("hunter2");
    expect(r.log()[0]).toMatchObject({ outcome: "replayed", args: { text: placeholder } });
  });
});

describe("a cassette prepared once for many replays", () => {
  const flow = async (r: ReturnType<typeof createReplayer>) => {
    await r.call("list_windows", {});
    await r.call("get_window_state", { pid: PID, window_id: WID, max_elements: 40 });
    await r.call("click", TOKEN);
    await r.call("click", TOKEN);
    await r.call("click", TOKEN);
    return r.log();
  };

  it("replays exactly as the raw cassette does, and replayers over it share no state", async () => {
    const raw = loadReplayCassette(MCP);
    const prepared = prepareReplayCassette(raw);
    const plan = { rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "timeout_before_effect" as const } }] };
    const expected = await flow(createReplayer({ cassette: raw, faults: plan }));
    const first = createReplayer({ cassette: prepared, faults: plan });
    expect(first.engine.exchanges).toBe(prepared.prepared.exchanges);
    expect(await flow(first)).toEqual(expected);
    // a second replayer starts at epoch 0 with nothing consumed
    const second = createReplayer({ cassette: prepared, faults: plan });
    expect(second.summary().epoch).toBe(0);
    expect(await flow(second)).toEqual(expected);
  });

  it("a replayer given other tool annotations than the preparation builds its own exchanges", () => {
    const prepared = prepareReplayCassette(loadReplayCassette(MCP));
    const r = createReplayer({ cassette: prepared, tools: [{ name: "click", annotations: { readOnlyHint: true } }] });
    expect(r.engine.exchanges).not.toBe(prepared.prepared.exchanges);
    expect(r.engine.kindOf({ transport: "inprocess", method: "call", tool: "click", args: {} })).toBe("read");
  });
});
