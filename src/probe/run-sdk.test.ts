import { describe, expect, it } from "vitest";
import { probeSdk } from "./run-sdk.js";

describe("probeSdk: the modern era over the runtime's MCP connection", () => {
  it("a connection that never answers fails the discover step at the probe's deadline; the legacy steps stand", { timeout: 60_000 }, async () => {
    const snapshot = await probeSdk({ version: "0.21.0", timeoutMs: 300, mcpLines: async () => () => new Promise<string | undefined>(() => {}) });
    expect(snapshot.tools_list?.tools.length).toBeGreaterThan(0);
    expect(snapshot.steps.find((s) => s.step === "mcp_discover")).toMatchObject({ status: "failed", timed_out: true });
    expect(snapshot.mcp_eras).toBeUndefined();
  });

  it("an answer that is not JSON fails its own step instead of throwing the connection away", { timeout: 60_000 }, async () => {
    const snapshot = await probeSdk({ version: "0.21.0", timeoutMs: 2_000, mcpLines: async () => async () => "not json" });
    expect(snapshot.steps.find((s) => s.step === "mcp_discover")).toMatchObject({ status: "failed", message: expect.stringMatching(/not JSON/) });
  });
});
