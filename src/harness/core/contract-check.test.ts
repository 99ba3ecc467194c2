import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/helpers/run-cli.js";
import { manualClock, scriptedDriver } from "../../../test/helpers/scripted-driver.js";
import type { ToolInfo } from "#src/driver/port.js";
import { checkToolsAgainstContract } from "./contract-check.js";
import { createHarnessSession } from "./session.js";

const read = (p: string) => {
  const bytes = readFileSync(path.join(repoRoot, p));
  return JSON.parse((p.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"));
};
const contract = read("contracts/drivers/cua-driver-0.21.json");
const tools = (read("contracts/drivers/cua-driver-0.21.0.probe.json.gz") as { tools_list: { tools: ToolInfo[] } }).tools_list.tools;

describe("startup contract check (the prober's check on tools/list)", () => {
  it("the real 0.21.0 tools meet the shipped 0.21 contract", () => {
    expect(checkToolsAgainstContract({ contract, tools })).toEqual({ ok: true, gaps: [] });
  });

  it("names a missing tool and a flipped annotation", () => {
    const changed = tools
      .filter((t) => t.name !== "invoke_menu")
      .map((t) => (t.name === "get_window_state" ? { ...t, annotations: { ...t.annotations, idempotentHint: false } } : t));
    const r = checkToolsAgainstContract({ contract, tools: changed });
    expect(r.ok).toBe(false);
    expect(r.gaps).toContain("driver tools are missing: invoke_menu");
    expect(r.gaps).toContain("get_window_state: idempotentHint changed true → false (was relied on as repeatable)");
  });

  it("an invalid contract is a gap, not a throw", () => {
    const r = checkToolsAgainstContract({ contract: { format: "nope" }, tools });
    expect(r.ok).toBe(false);
    expect(r.gaps[0]).toMatch(/^the contract is not a driver contract \(format:/);
  });

  it("a session given a contract the driver misses refuses every step before any call", async () => {
    const driver = scriptedDriver(
      {},
      tools.filter((t) => t.name !== "click"),
    );
    const s = createHarnessSession({ driver, clock: manualClock(), contract });
    const r = await s.step({ action: "list_windows" });
    expect(r).toMatchObject({ decision: "blocked", blockedBy: "session_unavailable" });
    expect(r.note).toBe("The session cannot be used: the driver does not meet the contract: driver tools are missing: click.");
    expect(driver.log).toHaveLength(0);
    expect(s.state.unavailable).toContain("click");
  });
});
