import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ProbeSnapshotSchema } from "#src/schema/probe-snapshot.js";
import { describeDriver } from "#src/schema/probe-snapshot.js";
import { SourceRosterSchema, sourceSnapshotOf } from "./source-snapshot.js";

const root = new URL("../../", import.meta.url).pathname;
const roster = SourceRosterSchema.parse(JSON.parse(readFileSync(`${root}docs/reference/cua-driver-roster-source-bf3affc1.json`, "utf8")));
const bundled = JSON.parse(readFileSync(`${root}contracts/snapshots/source-bf3affc1.probe.json`, "utf8")) as Record<string, unknown>;

describe("a snapshot read from source", () => {
  it("the bundled one is what the roster in docs/reference builds (scripts/source-snapshot.mjs), and parses as a probe snapshot", () => {
    const built = sourceSnapshotOf(roster, { platform: "linux", at: String(bundled.probed_at) });
    expect(bundled).toEqual(built);
    const parsed = ProbeSnapshotSchema.parse(bundled);
    expect(parsed.driver).toEqual({
      source: "source",
      repo: "trycua/cua",
      commit: "bf3affc16530968c477985103e0f7409fb601e9e",
      location: "source:trycua/cua@bf3affc16530968c477985103e0f7409fb601e9e:.github/scripts/cua-driver-mcp-compat/expected-tools.json",
      platform: "linux",
      version: null,
    });
  });

  it("holds the linux roster by name, every platform's counts, and marks every step as read from source", () => {
    const snapshot = sourceSnapshotOf(roster, { platform: "linux", at: "2026-12-02T00:00:00.000Z" });
    expect(snapshot.list_tools).toHaveLength(62);
    expect(snapshot.list_tools).toEqual(expect.arrayContaining(["find_credentials", "type_secret", "mouse_drag"]));
    expect(snapshot.tools_list).toBeUndefined();
    expect(snapshot.by_platform).toEqual({
      darwin: { tools: 58, output_schemas: 34 },
      linux: { tools: 62, output_schemas: 38, only_here: ["mouse_button_down", "mouse_button_up", "mouse_drag", "parallel_mouse_drag"] },
      win32: { tools: 58, output_schemas: 34 },
    });
    expect(snapshot.steps.every((s) => s.from_source === true && s.duration_ms === 0)).toBe(true);
    expect(sourceSnapshotOf(roster, { platform: "darwin", at: "x" }).list_tools).toHaveLength(58);
    expect(describeDriver(snapshot.driver)).toMatch(/^read from source trycua\/cua@bf3affc1, not a probe of a binary: source:trycua\/cua@bf3affc1/);
  });

  it("refuses a roster whose counts disagree with its lists, and a platform it has no count for", () => {
    expect(() => sourceSnapshotOf({ ...roster, toolCountByPlatform: { ...roster.toolCountByPlatform, linux: 61 } }, { platform: "linux", at: "x" })).toThrow(
      "the roster lists 62 tools for linux, its toolCountByPlatform says 61",
    );
    expect(() => sourceSnapshotOf(roster, { platform: "freebsd", at: "x" })).toThrow("no tool count for freebsd");
  });

  it("the schema requires a source snapshot's repo and commit, and a location that names them", () => {
    const driver = bundled.driver as Record<string, unknown>;
    const bad = (edit: Record<string, unknown>) =>
      ProbeSnapshotSchema.safeParse({ ...bundled, driver: { ...driver, ...edit } }).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(bad({ commit: undefined })).toEqual(["driver.commit: a source snapshot names its commit"]);
    expect(bad({ commit: "bf3affc1" })?.[0]).toMatch(/^driver.commit: a commit is 40 lowercase hex digits/);
    expect(bad({ location: "sdk:@trycua/cua-driver@0.28.2" })).toEqual([
      "driver.location: a source snapshot's location is source:trycua/cua@bf3affc16530968c477985103e0f7409fb601e9e:<path>",
    ]);
    // other sources need neither
    expect(ProbeSnapshotSchema.safeParse({ ...bundled, driver: { source: "sdk", location: "sdk:x", platform: "linux", version: null } }).success).toBe(true);
  });
});
