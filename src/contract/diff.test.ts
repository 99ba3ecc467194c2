import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ToolsListResultSchema, type ToolsListResult, type ToolEntry } from "#src/schema/probe-snapshot.js";
import type { Change } from "./change.js";
import { diffSurfaces } from "./diff.js";
import { surfaceOfDocument, surfaceOfToolsList } from "./surface.js";

const REF = new URL("../../test/fixtures/tool-lists", import.meta.url).pathname;
const list = (v: string): ToolsListResult => ToolsListResultSchema.parse(JSON.parse(readFileSync(`${REF}/tools-list-${v}.json`, "utf8")));
const base = list("0.21.0");
const diff = (a: ToolsListResult, b: ToolsListResult) => diffSurfaces(surfaceOfToolsList(a), surfaceOfToolsList(b));
const brief = (changes: Change[]) => changes.map((c) => `${c.severity} ${c.kind} ${c.message}`);

/** A deep copy of the 0.21.0 list with one tool edited. */
// Edits reach deep into JSON Schema, which the ToolEntry type leaves open.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function mutate(tool: string, edit: (t: any) => void, from = base): ToolsListResult {
  const copy = structuredClone(from);
  const entry = copy.tools.find((t) => t.name === tool);
  if (!entry) throw new Error(`no ${tool}`);
  edit(entry satisfies ToolEntry);
  return copy;
}

describe("diff on the real 0.2x tool lists", () => {
  it("finds no differences at all between 0.21.0 and 0.22.0", () => {
    const d = diff(base, list("0.22.0"));
    expect(d.changes).toEqual([]);
    expect(d.ok).toBe(true);
  });

  it("finds only cosmetic changes between 0.21.0 and 0.22.2 (two descriptions)", () => {
    const d = diff(base, list("0.22.2"));
    expect(brief(d.changes)).toEqual([
      "cosmetic description_changed get_desktop_state: description changed",
      "cosmetic description_changed move_cursor: description changed",
    ]);
    expect(d.ok).toBe(true);
  });

  it("finds additive input and output growth in 0.24.0 and nothing that fails", () => {
    const d = diff(base, list("0.24.0"));
    expect(d.ok).toBe(true);
    expect(brief(d.changes)).toContain('additive property_added get_window_state: input property "max_dimension" is new');
    expect(brief(d.changes)).toContain('additive property_added start_session: output property "desktop_capture_authorized" is new');
  });

  it("finds the get_window_state idempotentHint flip and click target losing null in 0.28.2", () => {
    const d = diff(base, list("0.28.2"));
    expect(d.ok).toBe(false);
    const flip = d.changes.find((c) => c.kind === "annotation_changed" && c.tool === "get_window_state");
    expect(flip).toMatchObject({
      severity: "behavioural",
      path: "/annotations/idempotentHint",
      from: true,
      to: false,
      message: "get_window_state: idempotentHint changed true → false",
    });
    expect(d.changes.find((c) => c.tool === "click" && c.severity === "breaking")).toMatchObject({
      kind: "alternative_removed",
      path: "/inputSchema/properties/target/anyOf/1",
      message: 'click: input property "target" no longer accepts null',
    });
    expect(brief(d.changes)).toContain("additive output_schema_added get_window_state: outputSchema is new");
    expect(brief(d.changes)).toContain("additive output_schema_added list_apps: outputSchema is new");
    expect(d.counts).toMatchObject({ breaking: 1, behavioural: 1 });
  });

  it("reads the same list wrapped in a JSON-RPC response", () => {
    const found = surfaceOfDocument({ jsonrpc: "2.0", id: 2, result: JSON.parse(readFileSync(`${REF}/tools-list-0.21.0.json`, "utf8")) });
    expect("surface" in found && diffSurfaces(found.surface, surfaceOfToolsList(base)).changes).toEqual([]);
    expect(surfaceOfDocument({ hello: 1 })).toMatchObject({ problem: expect.stringContaining("neither a probe snapshot") });
  });
});

describe("diff on hand-mutated copies of 0.21.0, one per classification", () => {
  const only = (b: ToolsListResult) => brief(diff(base, b).changes);

  it("breaking: a tool removed", () => {
    const b = structuredClone(base);
    b.tools = b.tools.filter((t) => t.name !== "invoke_menu");
    expect(only(b)).toEqual(["breaking tool_removed invoke_menu: tool is gone"]);
    expect(diff(base, b).ok).toBe(false);
  });

  it("breaking: a tool renamed (same input schema under a new name)", () => {
    expect(only(mutate("invoke_menu", (t) => (t.name = "invoke_menu_item")))).toEqual([
      "breaking tool_renamed invoke_menu: tool was renamed to invoke_menu_item",
    ]);
  });

  it("breaking: an input property removed", () => {
    expect(only(mutate("click", (t) => delete t.inputSchema.properties.element_token))).toEqual([
      'breaking property_removed click: input property "element_token" is gone',
    ]);
  });

  it("breaking: a new required input property, and an existing one made required", () => {
    const b = mutate("click", (t) => {
      t.inputSchema.properties.confirm = { type: "boolean" };
      t.inputSchema.required = ["confirm", "pid"];
    });
    expect(only(b)).toEqual([
      'breaking property_added click: input property "confirm" is new and required',
      'breaking required_added click: input property "pid" is now required',
    ]);
  });

  it("breaking: an input enum value removed (additive when added)", () => {
    expect(only(mutate("click", (t) => (t.inputSchema.properties.button.enum = ["left", "right"])))).toEqual([
      'breaking enum_value_removed click: input property "button" value "middle" was removed',
    ]);
    expect(only(mutate("click", (t) => t.inputSchema.properties.button.enum.push("back")))).toEqual([
      'additive enum_value_added click: input property "button" value "back" was added',
    ]);
  });

  it("breaking: an output schema removed, or a promised output property gone", () => {
    expect(only(mutate("list_windows", (t) => delete t.outputSchema))).toEqual(["breaking output_schema_removed list_windows: outputSchema is gone"]);
    expect(only(mutate("list_windows", (t) => (t.outputSchema.anyOf[0].required = [])))).toEqual([
      'breaking required_removed list_windows: output property "windows" is no longer always present',
    ]);
  });

  it("breaking: a capability token removed", () => {
    expect(only(mutate("click", (t) => (t.capabilities = t.capabilities.filter((c: string) => c !== "accessibility.element_tokens"))))).toEqual([
      'breaking capability_removed click: capability "accessibility.element_tokens" is gone',
    ]);
  });

  it("behavioural: each annotation that loses a safety property", () => {
    expect(only(mutate("list_windows", (t) => (t.annotations.readOnlyHint = false)))).toEqual([
      "behavioural annotation_changed list_windows: readOnlyHint changed true → false",
    ]);
    expect(only(mutate("move_cursor", (t) => (t.annotations.idempotentHint = false)))).toEqual([
      "behavioural annotation_changed move_cursor: idempotentHint changed true → false",
    ]);
    expect(only(mutate("scroll", (t) => (t.annotations.destructiveHint = true)))).toEqual([
      "behavioural annotation_changed scroll: destructiveHint changed false → true",
    ]);
  });

  it("additive: an annotation that gains a safety property", () => {
    expect(only(mutate("click", (t) => (t.annotations.idempotentHint = true)))).toEqual([
      "additive annotation_changed click: idempotentHint changed false → true",
    ]);
  });

  it("behavioural: tools/list versions and a raised risk class", () => {
    const b = structuredClone(base);
    b.capability_version = "2";
    expect(only(b)).toEqual(["behavioural tools_list_version_changed tools/list capability_version changed 1 → 2"]);
    expect(only(mutate("zoom", (t) => (t.risk.class = "r3")))).toEqual(["behavioural risk_changed zoom: risk class changed r2 → r3"]);
  });

  it("additive: a new tool, a new optional input property, an output schema added", () => {
    const b = structuredClone(base);
    b.tools.push({ name: "screenshot", inputSchema: { type: "object", properties: { pid: { type: "integer" } } } });
    expect(only(b)).toEqual(["additive tool_added screenshot: tool is new"]);
    expect(only(mutate("click", (t) => (t.inputSchema.properties.dry_run = { type: "boolean" })))).toEqual([
      'additive property_added click: input property "dry_run" is new',
    ]);
    expect(only(mutate("zoom", (t) => (t.outputSchema = { type: "object" })))).toEqual(["additive output_schema_added zoom: outputSchema is new"]);
  });

  it("cosmetic: description-only changes, at the tool and inside a schema", () => {
    expect(
      only(
        mutate("click", (t) => {
          t.description = "Click.";
          t.inputSchema.properties.button.description = "Which button.";
        }),
      ),
    ).toEqual(["cosmetic description_changed click: description changed", 'cosmetic description_changed click: input property "button" description changed']);
  });

  it("breaking: an input that no longer accepts a type; behavioural: an output that may now be null", () => {
    expect(only(mutate("click", (t) => (t.inputSchema.properties.x.type = "integer")))).toEqual([
      'breaking type_removed click: input property "x" no longer accepts number',
    ]);
    expect(only(mutate("click", (t) => (t.inputSchema.properties.count.type = "number")))).toEqual([
      'additive type_added click: input property "count" may now be number',
    ]);
    expect(only(mutate("click", (t) => (t.inputSchema.properties.count.type = "string")))).toEqual(
      [
        'breaking type_removed click: input property "count" no longer accepts integer',
        'additive type_added click: input property "count" may now be string',
      ].sort((a, b) => (a.startsWith("breaking") ? -1 : b.startsWith("breaking") ? 1 : 0)),
    );
    expect(only(mutate("list_windows", (t) => (t.outputSchema.anyOf[0].properties.windows.type = ["array", "null"])))).toEqual([
      'behavioural type_added list_windows: output property "windows" may now be null',
    ]);
  });
});

describe("diff of the CLI surface and protocol", () => {
  it("classifies argv removed as breaking, added as additive, and protocol changes as behavioural", async () => {
    const { binarySnapshot021 } = await import("../../test/helpers/probe-snapshots.js");
    const { surfaceOfSnapshot } = await import("./surface.js");
    const a = binarySnapshot021();
    const b = binarySnapshot021();
    const call = b.manifest!.subcommands.find((s) => s.name === "call")!;
    call.args = call.args.filter((x) => x.name !== "--screenshot-out-file");
    call.args.push({ name: "--timeout", type: "string" });
    b.manifest!.subcommands = b.manifest!.subcommands.filter((s) => s.name !== "stop");
    b.manifest!.mcp_invocation = { args: ["mcp", "--direct"] };
    b.initialize!.protocolVersion = "2025-11-25";
    const d = diffSurfaces(surfaceOfSnapshot(a), surfaceOfSnapshot(b));
    expect(brief(d.changes)).toEqual([
      "breaking subcommand_removed driver CLI lost subcommand: stop",
      "breaking argv_removed driver CLI lost: call --screenshot-out-file",
      'behavioural mcp_invocation_changed driver manifest mcp_invocation.args changed ["mcp"] → ["mcp","--direct"]',
      "behavioural protocol_version_changed MCP protocolVersion changed 2025-06-18 → 2025-11-25",
      "additive argv_added driver CLI gained: call --timeout",
    ]);
    expect(diffSurfaces(surfaceOfSnapshot(a), surfaceOfSnapshot(binarySnapshot021())).changes).toEqual([]);
  });
});

describe("diff against a snapshot read from source (tool names only)", () => {
  const sourceSnapshot = () => JSON.parse(readFileSync(new URL("../../contracts/snapshots/source-bf3affc1.probe.json", import.meta.url), "utf8"));

  it("compares names only: the new tools are additive, no schema of the probed side is reported gone, and the note and sides say so", async () => {
    const { sdkSnapshot } = await import("../../test/helpers/probe-snapshots.js");
    const { surfaceOfSnapshot } = await import("./surface.js");
    const probed = surfaceOfSnapshot(sdkSnapshot("0.28.2"));
    const found = surfaceOfDocument(sourceSnapshot());
    if (!("surface" in found)) throw new Error(found.problem);
    const d = diffSurfaces(probed, found.surface);
    // check_for_update is the binary's own tool on top of the runtime's inventory: not new
    expect(brief(d.changes)).toEqual(["additive tool_added find_credentials: tool is new", "additive tool_added type_secret: tool is new"]);
    expect(d.ok).toBe(true);
    expect(d.notes).toContain(
      "tool schemas not compared: the second side was read from source, which names the tools only (their schemas are unknown, not absent)",
    );
    expect(d.to).toMatchObject({ version: null, source: "source trycua/cua@bf3affc1" });
    expect(d.to.read_from_source).toMatch(/^read from source trycua\/cua@bf3affc1, not a probe of a binary: source:trycua\/cua@bf3affc1/);
    expect(d.from.read_from_source).toBeUndefined();
  });

  it("a tool the roster lacks is still gone (names are known), in either direction", async () => {
    const { sdkSnapshot } = await import("../../test/helpers/probe-snapshots.js");
    const { surfaceOfSnapshot } = await import("./surface.js");
    const snapshot = sourceSnapshot();
    snapshot.list_tools = snapshot.list_tools.filter((n: string) => n !== "zoom");
    const found = surfaceOfDocument(snapshot);
    if (!("surface" in found)) throw new Error(found.problem);
    expect(brief(diffSurfaces(surfaceOfSnapshot(sdkSnapshot("0.28.2")), found.surface).changes)).toContain("breaking tool_removed zoom: tool is gone");
    expect(brief(diffSurfaces(found.surface, surfaceOfSnapshot(sdkSnapshot("0.28.2"))).changes)).toEqual([
      "breaking tool_removed find_credentials: tool is gone",
      "breaking tool_removed type_secret: tool is gone",
      "additive tool_added zoom: tool is new",
    ]);
  });
});
