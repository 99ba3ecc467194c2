import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ACTION_RESULT_TOOLS, KNOWN_TOOLS_0_21, READ_ONLY_TOOLS_0_21 } from "./tool-kinds.js";

// The 0.21 catalogue, checked against the real Linux 0.21.0 tools/list annotations table.
const rows = readFileSync(new URL("../../test/fixtures/reference/cua-driver/derived/tools-annotations.linux.0.21.0.tsv", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => line.split("\t"));

describe("0.21 tool catalogue", () => {
  it("lists exactly the tools 0.21.0 lists on Linux", () => {
    expect([...KNOWN_TOOLS_0_21].sort()).toEqual(rows.map((r) => r[0]).sort());
  });
  it("marks read-only exactly the tools annotated readOnlyHint=true", () => {
    expect([...READ_ONLY_TOOLS_0_21].sort()).toEqual(rows.filter((r) => r[1] === "true").map((r) => r[0]).sort());
  });
  it("has ActionResult tools that are listed mutations (plus the unlisted type_text_chars alias)", () => {
    for (const tool of ACTION_RESULT_TOOLS) {
      if (tool === "type_text_chars") continue;
      expect(KNOWN_TOOLS_0_21, tool).toContain(tool);
      expect(READ_ONLY_TOOLS_0_21.has(tool), tool).toBe(false);
    }
  });
});
