import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";

describe("probe --sdk (the real published runtime)", () => {
  it("probes @trycua/cua-driver@0.21.0 in process: tools/list and metadata, no CLI steps", async () => {
    const r = await runCliInProcess(["probe", "--sdk", "0.21.0", "--contract", "contracts/drivers/cua-driver-0.21.json", "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(String(r.stdout));
    expect(doc).toMatchObject({ ok: true, version: "0.21.0", driver: { source: "sdk", location: "sdk:@trycua/cua-driver@0.21.0" } });
    expect(doc.tools).toHaveLength(59);
    expect(doc.steps.filter((s: any) => s.status === "succeeded").map((s: any) => s.step)).toEqual(["mcp_tools_list", "metadata"]);
    expect(doc.gaps.every((g: any) => !g.blocking)).toBe(true);
  });

  it("names the published versions when asked for one that does not exist (exit 2)", async (ctx) => {
    const r = await runCliInProcess(["probe", "--sdk", "0.23.0"]);
    if (r.exitCode === 3 && /cannot reach the npm registry/.test(String(r.stderr))) ctx.skip(`npm registry unreachable: ${String(r.stderr).trim()}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^cua-contract: --sdk: @trycua\/cua-driver has no version 0\.23\.0\. Published versions: .*0\.22\.2, 0\.24\.0.*0\.28\.2/);
  });
});
