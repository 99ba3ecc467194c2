import path from "node:path";
import { describe, expect, it } from "vitest";
import { isTransportFailure, type ToolResult } from "#src/driver/port.js";
import type { Fault, FaultPlan } from "#src/schema/fault-plan.js";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { loadReplayCassette } from "./load.js";
import { createReplayer } from "./replayer.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";

const cassette = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"));
const TOKEN = { pid: 24132, window_id: 4194311, element_token: "s00000004:15" };

const withFault = (fault: Fault, tool = "list_windows") => createReplayer({ cassette, faults: { rules: [{ match: { tool }, fault }] } });

describe("faults on the in-process Driver", () => {
  it("hang, timeout_before_effect, timeout_after_effect: timeout at timeoutMs; the epoch stays or moves", async () => {
    for (const [kind, epoch] of [
      ["hang", 0],
      ["timeout_before_effect", 0],
      ["timeout_after_effect", 1],
    ] as const) {
      const clock = createVirtualClock();
      const r = createReplayer({ cassette, clock, faults: { rules: [{ match: { tool: "click" }, fault: { kind } }] } });
      expect(await r.call("click", TOKEN, { timeoutMs: 5000 })).toMatchObject({ kind: "timeout", tool: "click" });
      expect(clock.now()).toBe(5000);
      expect(r.summary().epoch).toBe(epoch);
    }
    // no timeout given: the driver's own 120 s deadline, in virtual time
    const clock = createVirtualClock();
    const r = createReplayer({ cassette, clock, faults: { rules: [{ match: { tool: "click" }, fault: { kind: "hang" } }] } });
    expect(await r.call("click", TOKEN)).toMatchObject({ kind: "timeout" });
    expect(clock.now()).toBe(120_000);
  });

  it("delay: the answer after ms of virtual time, or a timeout when timeoutMs is shorter", async () => {
    const clock = createVirtualClock();
    const r = createReplayer({ cassette, clock, faults: { rules: [{ match: { tool: "list_windows" }, fault: { kind: "delay", ms: 700 } }] } });
    const reply = (await r.call("list_windows", {})) as ToolResult;
    expect(reply.structuredContent).toHaveProperty("windows");
    expect(clock.now()).toBe(700);
    expect(await r.call("list_windows", {}, { timeoutMs: 100 })).toMatchObject({ kind: "timeout" });
  });

  it("daemon_down, daemon_died_midcall, exit, truncated: transport failures", async () => {
    expect(await withFault({ kind: "daemon_down" }).call("list_windows", {})).toMatchObject({ kind: "transport_error" });
    expect(await withFault({ kind: "daemon_died_midcall" }).call("list_windows", {})).toMatchObject({ kind: "daemon_died" });
    expect(await withFault({ kind: "exit", code: 1, stderr: "boom" }).call("list_windows", {})).toMatchObject({ kind: "daemon_died", message: "boom" });
    expect(await withFault({ kind: "truncated" }).call("list_windows", {})).toMatchObject({ kind: "transport_error" });
  });

  it("protocol_error: no era in process, so the refusal of a request without the era's metadata, as a JSON-RPC error", async () => {
    expect(await withFault({ kind: "protocol_error", reason: "unsupported_version" }).call("list_windows", {})).toEqual({
      kind: "transport_error",
      tool: "list_windows",
      message: "JSON-RPC -32602: Missing required per-request MCP metadata",
    });
  });

  it("empty, refusal, corrupt_image: tool results with the changed bytes in raw", async () => {
    const empty = (await withFault({ kind: "empty" }).call("list_windows", {})) as ToolResult;
    expect(empty.raw).toBe('{"content":[{"text":"Found 0 windows:","type":"text"}],"structuredContent":{"windows":[]}}');
    const state = (await withFault({ kind: "empty" }, "get_window_state").call("get_window_state", {
      pid: 24132,
      window_id: 4194311,
      max_elements: 40,
    })) as ToolResult;
    expect(state.content).toEqual([]);
    expect(state.structuredContent).toMatchObject({ elements: [], element_count: 0, tree_markdown: "" });
    expect(state.structuredContent).not.toHaveProperty("screenshot_width");
    const refused = (await withFault({ kind: "refusal", code: "ambiguous_window_target" }, "click").call("click", TOKEN)) as ToolResult;
    expect(refused).toMatchObject({ isError: true, structuredContent: { code: "ambiguous_window_target", effect: "refused", pid: 24132 } });
    // the candidates are the pid's windows in the cassette's list_windows answer
    expect(refused.structuredContent?.candidates).toEqual([{ app_name: "Gtk3-demo", is_on_screen: true, title: "Application Class", window_id: 4194311 }]);
    const clean = (await createReplayer({ cassette }).call("get_window_state", { pid: 24132, window_id: 4194311, max_elements: 40 })) as ToolResult;
    const bad = (await withFault({ kind: "corrupt_image" }, "get_window_state").call("get_window_state", {
      pid: 24132,
      window_id: 4194311,
      max_elements: 40,
    })) as ToolResult;
    const data = (r: ToolResult) => (r.content.find((b) => b.type === "image") as { data: string }).data;
    expect(data(bad)).toHaveLength(data(clean).length);
    expect(data(bad)).not.toBe(data(clean));
    expect(bad.raw!.length).toBe(clean.raw!.length);
  });

  it("is deterministic: the same plan and seed give identical logs; another seed does not", async () => {
    const plan: FaultPlan = {
      rules: [
        { match: { kind: "read", probability: 0.4 }, fault: { kind: "empty" } },
        { match: { kind: "mutation", probability: 0.5 }, fault: { kind: "timeout_after_effect" } },
      ],
    };
    const run = async (seed: number) => {
      const r = createReplayer({ cassette, faults: plan, seed });
      for (let i = 0; i < 30; i++) {
        await r.call("list_windows", {});
        await r.call("get_screen_size", {});
      }
      await r.call("click", TOKEN, { timeoutMs: 1000 });
      await r.call("click", TOKEN, { timeoutMs: 1000 });
      return JSON.stringify(r.log());
    };
    const a = await run(42);
    expect(await run(42)).toBe(a);
    expect(await run(43)).not.toBe(a);
    expect(a).toContain('"kind":"empty"');
  });
});

describe("unmatched requests", () => {
  it("are never answered with success", async () => {
    const r = createReplayer({ cassette });
    const reply = await r.call("type_text", { text: "hi" });
    expect(isTransportFailure(reply)).toBe(true);
    expect(r.log()[0]).toMatchObject({ outcome: "unmatched", unmatched: { path: "$.tool" } });
  });
});
