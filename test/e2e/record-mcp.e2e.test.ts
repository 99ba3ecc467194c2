import { execa } from "execa";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { readCassette, restoreText } from "#src/cassette/index.js";
import type { McpLineEvent } from "#src/schema/cassette.js";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const fake = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
const sdk = (p: string) => pathToFileURL(path.join(repoRoot, "node_modules/@modelcontextprotocol/sdk/dist/esm", p)).href;

// An MCP harness using the official SDK client over stdio, spawning `cua-driver mcp` from PATH.
const CLIENT = `
import { writeFileSync } from "node:fs";
import { Client } from "${sdk("client/index.js")}";
import { StdioClientTransport } from "${sdk("client/stdio.js")}";
const client = new Client({ name: "e2e-harness", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: "cua-driver", args: ["mcp"] }));
const tools = await client.listTools();
const size = await client.callTool({ name: "get_screen_size", arguments: {} });
const desktop = await client.callTool({ name: "get_desktop_state", arguments: {} });
const typed = await client.callTool({ name: "type_text", arguments: { pid: 1, window_id: 2, text: "mcp secret text" } });
await client.close();
writeFileSync(process.argv[2], JSON.stringify({
  server: client.getServerVersion(),
  tools: tools.tools.length,
  size: size.structuredContent,
  image: desktop.content.find((c) => c.type === "image")?.data.length,
  typed: typed.structuredContent,
}));
`;

describe("record: MCP stdio through the shim", () => {
  it("records every line both ways exactly, with images as frames and secrets redacted", async () => {
    await using work = await tmpDir();
    const out = path.join(work.path, "rec");
    writeFileSync(path.join(work.path, "client.mjs"), CLIENT);
    const r = await runCliInProcess([
      "record",
      "--out",
      out,
      "--driver",
      fake,
      "--",
      process.execPath,
      path.join(work.path, "client.mjs"),
      path.join(work.path, "seen.json"),
    ]);
    expect(r.stderr).not.toContain("cua-contract"); // (the SDK client itself warns about uint formats)
    expect(r.exitCode).toBe(0);
    const seen = JSON.parse(readFileSync(path.join(work.path, "seen.json"), "utf8"));
    expect(seen).toMatchObject({ server: { name: "cua-driver", version: "0.21.0" }, tools: 60, size: { width: 1280, height: 800 } });
    expect(seen.image).toBeGreaterThan(1000);

    const cassette = await readCassette(out);
    expect(cassette.header.transport).toBe("mcp");
    const kinds = cassette.events.filter((e) => e.origin !== "recorder").map((e) => e.kind);
    expect(kinds[0]).toBe("mcp_open");
    expect(kinds[kinds.length - 1]).toBe("mcp_close");
    const lines = cassette.events.filter((e): e is McpLineEvent => e.kind === "mcp");
    const c2s = lines.filter((e) => e.dir === "c2s").map((e) => restoreText(cassette, e, "line"));
    const s2c = lines.filter((e) => e.dir === "s2c").map((e) => restoreText(cassette, e, "line"));
    // The recorded server lines are exactly what the driver answers to the recorded client lines.
    const direct = await execa(fake, ["mcp"], { input: `${c2s.join("\n")}\n`, stripFinalNewline: false });
    expect(s2c.map((l) => `${l}\n`).join("")).toBe(direct.stdout);
    const reference = path.resolve(repoRoot, "test/fixtures/reference/cua-driver");
    const init = readFileSync(path.join(reference, "reconstructed/mcp/initialize.linux.response.jsonl"), "utf8").trim();
    expect(s2c[0]).toBe(init.replace('"id":1,', `"id":${JSON.parse(c2s[0]!).id},`));
    // The get_desktop_state image is a frame, not inline base64.
    const withImage = lines.filter((e) => e.frames?.length);
    expect(withImage).toHaveLength(1);
    expect(JSON.stringify(withImage[0]!.line)).not.toContain("iVBORw0KGgo");
    // Typed text is redacted in the stored request.
    const raw = readFileSync(path.join(out, "cassette.jsonl"), "utf8");
    expect(raw).not.toContain("mcp secret text");
    expect(c2s.find((l) => l.includes("type_text"))).toMatch(/"text":"«redacted:text:[0-9a-f]{8}»"/);
    const inspect = JSON.parse(String((await runCliInProcess(["inspect", out, "--json"])).stdout));
    expect(inspect.mcp_streams).toBe(1);
    expect(inspect.by_tool).toEqual({ get_screen_size: 1, get_desktop_state: 1, type_text: 1 });
    expect(inspect.frames.count).toBe(1);
    expect(inspect.by_exit_code).toEqual({ "0": 3 });
  });

  it("propagates the driver's exit when it fails to start a session", async () => {
    await using work = await tmpDir();
    const out = path.join(work.path, "rec");
    const r = await runCliInProcess(["record", "--out", out, "--driver", fake, "--", "sh", "-c", "cua-driver mcp --socket /nope </dev/null; echo exit=$?"], {
      env: { FAKE_CUA_DRIVER_DAEMON: "down" },
    });
    expect(r.stdout).toBe("exit=1");
    expect(r.stderr).toContain("cua-driver-rs: no Cua Driver daemon listening on /nope");
    const cassette = await readCassette(out);
    expect(cassette.events.filter((e) => e.kind === "mcp_close").map((e) => (e as { exit_code: number }).exit_code)).toEqual([1]);
  });
});
