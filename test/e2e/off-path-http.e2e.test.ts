// The fail-closed example harness and its buggy twins over MCP over HTTP (serve --transport http),
// off the recorded path: the twins are caught, also after `hang`; the correct harness passes. The
// server runs in this process (what is judged is the replay behind it; serve-http.e2e spawns it).
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { startServeHttpInProcess } from "../helpers/serve-http.js";
import { ENV, EXAMPLE, TWINS, cassettes, plan, useRecordings } from "./off-path/fixture.js";

useRecordings(["mcp"]);

describe("the buggy twins are caught over MCP over HTTP", () => {
  it.each(TWINS)(
    "$twin with $fault.kind on $tool over MCP over HTTP (serve --transport http)",
    { timeout: 60_000 },
    async ({ twin, tool, fault, expected }) => {
      const token = "t".repeat(40);
      const server = await startServeHttpInProcess({ args: [cassettes.mcp!, "--faults", plan(tool, fault)], token });
      const harness = await execa("python3", ["twins.py", twin, "--transport", "http"], {
        cwd: EXAMPLE,
        reject: false,
        env: { ...ENV, CUA_CONTRACT_MCP_HTTP_URL: server.url, CUA_DRIVER_RS_MCP_HTTP_TOKEN: token },
      });
      expect(harness.exitCode, String(harness.stderr)).toBe(0);
      const done = await server.stop();
      const found = [...new Set([...String(done.stderr).matchAll(/violation ([a-z-]+):/g)].map((m) => m[1]!))].sort();
      expect(found).toEqual(expected.http);
      expect(done.exitCode).toBe(1);
      expect(String(done.stderr)).toMatch(/unmatched 0,/);
    },
  );

  it("the fail-closed harness itself passes over HTTP after a hang", { timeout: 60_000 }, async () => {
    const token = "t".repeat(40);
    const server = await startServeHttpInProcess({ args: [cassettes.mcp!, "--faults", plan("type_text", { kind: "hang" })], token });
    await execa("python3", ["harness.py", "--transport", "http"], {
      cwd: EXAMPLE,
      env: { ...ENV, CUA_CONTRACT_MCP_HTTP_URL: server.url, CUA_DRIVER_RS_MCP_HTTP_TOKEN: token },
    });
    const done = await server.stop();
    expect(String(done.stderr)).not.toMatch(/violation/);
    expect(String(done.stderr)).toMatch(/unmatched 0,/);
    expect(done.exitCode).toBe(0);
  });
});
