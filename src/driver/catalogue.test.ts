import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ACTION_RESULT_TOOLS,
  classifiedNames,
  harnessActionFor,
  HARNESS_MUTATING_ACTIONS,
  hasFlag,
  KNOWN_TOOLS_0_21,
  listedToolsFor,
  READ_ONLY_TOOLS_0_21,
  STRUCTURED_ON_SUCCESS,
  TOOL_CATALOGUE,
  toolsWith,
} from "./catalogue.js";

// The real Linux tools/list (runtime inventory, captured from the published library) of each release.
const VERSIONS = ["0.20.0", "0.21.0", "0.22.0", "0.22.2", "0.24.0", "0.28.2"] as const;
interface ListedTool {
  name: string;
  annotations?: { readOnlyHint?: boolean };
  outputSchema?: unknown;
}
const listOf = (v: string) =>
  (JSON.parse(readFileSync(new URL(`../../test/fixtures/tool-lists/tools-list-${v}.json`, import.meta.url), "utf8")) as { tools: ListedTool[] }).tools;

// The MCP surface of 0.21.0 (with the CLI-hosted check_for_update), from the annotations table.
const rows = readFileSync(new URL("../../test/fixtures/reference/cua-driver/derived/tools-annotations.linux.0.21.0.tsv", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => line.split("\t"));

describe("the tool catalogue against the real tool lists", () => {
  it.each(VERSIONS)("%s: listed = the runtime's tools plus the CLI-hosted ones, read-only = readOnlyHint", (version) => {
    const tools = listOf(version);
    expect(tools.length).toBe(59);
    const runtime = toolsWith("listed").filter((t) => !hasFlag(t, "cli-host"));
    expect(runtime).toEqual(tools.map((t) => t.name).sort());
    for (const t of tools) expect(hasFlag(t.name, "read-only"), t.name).toBe(t.annotations?.readOnlyHint === true);
  });

  it.each(VERSIONS)("%s: ActionResult and structured-on-success tools declare an outputSchema", (version) => {
    const byName = new Map(listOf(version).map((t) => [t.name, t]));
    for (const tool of STRUCTURED_ON_SUCCESS) {
      if (hasFlag(tool, "classified-unlisted")) continue; // the type_text_chars alias
      // get_window_state answers with structuredContent (captured) but declares its schema only from 0.28
      if (tool === "get_window_state" && version !== "0.28.2") continue;
      expect(byName.get(tool)?.outputSchema, `${version} ${tool}`).toBeDefined();
    }
    for (const tool of ACTION_RESULT_TOOLS) expect(STRUCTURED_ON_SUCCESS.has(tool), tool).toBe(true);
  });

  it.each(VERSIONS)("%s: the list for the version is the real one, with the binary's check_for_update", (version) => {
    const names = [...listOf(version).map((t) => t.name), "check_for_update"].sort();
    expect(listedToolsFor({ version, platform: "linux-x64" })?.names).toEqual(names);
  });

  it("has no list for a release before 0.20.0 (their real lists are shorter), another platform or no version", () => {
    for (const version of ["0.14.1", "0.19.3"]) {
      const snapshot = JSON.parse(readFileSync(new URL(`../../contracts/snapshots/sdk-${version}.probe.json`, import.meta.url), "utf8")) as {
        tools_list: { tools: ListedTool[] };
      };
      expect(snapshot.tools_list.tools.length, version).toBeLessThan(59);
      expect(listedToolsFor({ version, platform: "linux-x64" }), version).toBeUndefined();
    }
    expect(listedToolsFor({ version: "0.28.2", platform: "darwin-arm64" })).toBeUndefined();
    expect(listedToolsFor({ version: null })).toBeUndefined();
    expect(listedToolsFor({ version: "nightly" })).toBeUndefined();
    // after 0.28.2: every tool of the roster read from source
    const roster = (
      JSON.parse(readFileSync(new URL("../../contracts/snapshots/source-bf3affc1.probe.json", import.meta.url), "utf8")) as { list_tools: string[] }
    ).list_tools;
    expect(listedToolsFor({ version: "0.29.0", platform: "linux-x64" })?.names).toEqual(expect.arrayContaining(roster));
  });

  it("lists exactly the tools 0.21.0 lists on Linux over MCP, read-only as annotated", () => {
    expect([...KNOWN_TOOLS_0_21]).toEqual(rows.map((r) => r[0]).sort());
    expect([...READ_ONLY_TOOLS_0_21].sort()).toEqual(
      rows
        .filter((r) => r[1] === "true")
        .map((r) => r[0])
        .sort(),
    );
  });

  it("knows every tool of the roster read from source after 0.28.2; those no release 0.20.0–0.28.2 lists are after-0.28.2, the credential tools among them", () => {
    const roster = (
      JSON.parse(readFileSync(new URL("../../contracts/snapshots/source-bf3affc1.probe.json", import.meta.url), "utf8")) as { list_tools: string[] }
    ).list_tools;
    expect(roster.filter((t) => !TOOL_CATALOGUE.has(t))).toEqual([]);
    expect(roster.filter((t) => !hasFlag(t, "listed"))).toEqual(toolsWith("after-0.28.2"));
    expect(toolsWith("after-0.28.2")).toEqual(["find_credentials", "type_secret"]);
    expect(toolsWith("credential")).toEqual(["find_credentials", "type_secret"]);
    // nothing claimed from schemas or annotations never seen; type_secret types into a target (its design)
    for (const t of toolsWith("after-0.28.2"))
      expect(
        [...TOOL_CATALOGUE.get(t)!.flags].filter((f) => f !== "credential" && !(t === "type_secret" && f === "input")),
        t,
      ).toEqual(["after-0.28.2"]);
    expect(hasFlag("type_secret", "input")).toBe(true);
  });

  it("keeps the flags consistent with one another", () => {
    for (const record of TOOL_CATALOGUE.values()) {
      const f = (flag: Parameters<typeof hasFlag>[1]) => record.flags.has(flag);
      const where = record.name;
      if (f("action-result") || f("input") || f("pointer")) expect(f("read-only"), where).toBe(false);
      // a tool from after 0.28.2 delivers input by its design; its result shape was never seen
      if (f("input") && !f("after-0.28.2")) expect(f("action-result"), where).toBe(true);
      if (f("pointer")) expect(f("input"), where).toBe(true);
      if (f("observation") && f("listed")) expect(f("read-only"), where).toBe(true);
      if (f("session-lifecycle")) expect(f("session-state"), where).toBe(true);
      if (f("cli-host")) expect(f("listed"), where).toBe(true);
      expect(f("listed") && f("classified-unlisted"), where).toBe(false);
      if (record.aliasOf) expect(TOOL_CATALOGUE.get(record.aliasOf)?.flags.has("listed"), where).toBe(true);
    }
  });

  it("derives the lists other parts used to keep themselves", () => {
    expect(toolsWith("input")).toEqual([...ACTION_RESULT_TOOLS, "type_secret"].filter((t) => t !== "set_window_frame").sort());
    expect(toolsWith("session-lifecycle")).toEqual(["end_session", "start_session"]);
    expect(toolsWith("session-state")).toEqual(["end_session", "get_session", "get_session_state", "list_sessions", "start_session"]);
    expect(harnessActionFor("type_text_chars")).toBe("type_text");
    expect(harnessActionFor("click")).toBe("click");
    expect(harnessActionFor("double_click")).toBeUndefined();
    // the reads that stay healthy while a session is expired (the sticky faults)
    expect(toolsWith("health")).toEqual(["check_permissions", "get_config", "get_session", "get_session_state", "health_report", "list_sessions"]);
    for (const tool of toolsWith("health")) expect(hasFlag(tool, "read-only")).toBe(true);
    // the harness's input actions, once kept by hand in two fuzz files
    expect([...HARNESS_MUTATING_ACTIONS].sort()).toEqual(["click", "hotkey", "press_key", "set_window_frame", "type_text"]);
    expect([...classifiedNames(["click"])].sort()).toEqual([
      "check_for_update",
      "click",
      "debug_window_info",
      "history_query",
      "history_status",
      "type_text_chars",
    ]);
  });
});
