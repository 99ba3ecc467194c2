// MCP over HTTP replay at its limits: oversized request headers and an enormous unmatched argument.
import { execa } from "execa";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../helpers/run-cli.js";

const TOKEN = "t".repeat(40);

async function serve(): Promise<{ port: number; stderr: () => string } & AsyncDisposable> {
  const child = execa(process.execPath, [cliPath, "serve", "test/fixtures/cassettes/replay-mcp-gtk", "--transport", "http", "--port", "0"], {
    cwd: repoRoot,
    env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN },
    reject: false,
  });
  let err = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(err);
      if (m) resolve(Number(m[1]));
    });
    void child.then(() => reject(new Error(`serve exited: ${err}`)));
  });
  return {
    port,
    stderr: () => err,
    [Symbol.asyncDispose]: async () => {
      child.kill("SIGTERM");
      await child;
    },
  };
}

/** Sends raw bytes and resolves to everything the server sent back before closing (or an error code). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    let out = "";
    s.on("data", (d) => (out += d.toString()));
    s.on("error", (e: NodeJS.ErrnoException) => resolve(`error ${e.code}: ${out}`));
    s.on("close", () => resolve(out));
    s.write(request);
  });
}

const post = (port: number, body: unknown) =>
  fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  }).then((r) => r.text());

describe("serve --transport http at its limits", () => {
  it("answers a 100 KB request header with 431, not a reset; 20 KB headers are within the driver's 64 KiB", async () => {
    await using server = await serve();
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const request = (header: number) =>
      `POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nX-Big: ${"a".repeat(header)}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
    const big = await raw(server.port, request(100_000));
    expect(big).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(big).toContain('"message":"Request headers are larger than 65536 bytes"');
    expect(await raw(server.port, request(20_000))).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  it("names a 1 MB unmatched argument by a short prefix, its length and a fingerprint", async () => {
    await using server = await serve();
    await post(server.port, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const answer = await post(server.port, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "click", arguments: { pid: 1, window_id: 2, element_token: "x".repeat(1_000_000) } },
    });
    expect(answer.length).toBeLessThan(1_000);
    expect((JSON.parse(answer) as { error: { message: string } }).error.message).toMatch(
      /\$\.element_token: "x{59}… \(1000002 chars, fnv1a [0-9a-f]{8}\) ≠ recorded "s00000004:15"(;|$)/,
    );
    await new Promise((r) => setTimeout(r, 100));
    const unmatched = server
      .stderr()
      .split("\n")
      .find((l) => l.includes("UNMATCHED"))!;
    expect(unmatched).toMatch(/fnv1a [0-9a-f]{8}\) ≠ recorded /);
    expect(unmatched.length).toBeLessThan(1_000);
  });
});
