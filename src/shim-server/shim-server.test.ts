import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { CliRequest, ShimBackend } from "./backend.js";
import { startShimServer } from "./server.js";
import { nativeShimBinary } from "./native-shim.js";
import { statSync } from "node:fs";

function echoBackend(seen: { requests: CliRequest[]; aborted: number; mcpLines: string[] }): ShimBackend {
  return {
    async cli(request) {
      seen.requests.push(request);
      const [cmd] = request.argv;
      if (cmd === "hang") {
        return new Promise((_, reject) =>
          request.signal.addEventListener("abort", () => {
            seen.aborted++;
            reject(new Error("aborted"));
          }),
        );
      }
      if (cmd === "sig") return { stdout: Buffer.from("partial"), stderr: Buffer.alloc(0), exitCode: null, signal: "SIGTERM" };
      return {
        stdout: Buffer.concat([Buffer.from(`argv=${JSON.stringify(request.argv)} stdin=`), request.stdin]),
        stderr: Buffer.from([0xff, 0x00, 0x41]),
        exitCode: 7,
      };
    },
    mcp(_init, io) {
      return {
        line(line) {
          seen.mcpLines.push(line);
          if (line === "quit") io.exit(5);
          else io.send(`echo:${line}`);
        },
        end() {
          io.exit(0);
        },
      };
    },
  };
}

/** Waits for a condition (polling), failing the test after 10 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met within 10 s");
    await new Promise((r) => setTimeout(r, 20));
  }
}

// The native shim needs a C compiler; without one the node shim is the product's fallback.
const kinds = nativeShimBinary() ? (["native", "node"] as const) : (["node"] as const);

describe.each(kinds)("shim server (%s shim)", (kind) => {
  it("forwards argv and stdin, mirrors stdout, stderr bytes and the exit code, cleans PATH", async () => {
    const seen = { requests: [] as CliRequest[], aborted: 0, mcpLines: [] as string[] };
    await using server = await startShimServer({ backend: echoBackend(seen), shim: kind });
    expect(server.shimKind).toBe(kind);
    expect(statSync(server.dir).mode & 0o777).toBe(0o700);
    expect(statSync(server.socketPath).mode & 0o777).toBe(0o600);
    const env = { ...process.env, ...server.env, EXTRA: "x=y" };
    const a = await execa("cua-driver", ["call", "get_screen_size", '{"a": 1}'], { env, reject: false, encoding: "buffer", input: "ignored" });
    expect(Buffer.from(a.stdout).toString()).toBe('argv=["call","get_screen_size","{\\"a\\": 1}"] stdin=');
    expect(Buffer.from(a.stderr)).toEqual(Buffer.from([0xff, 0x00, 0x41]));
    expect(a.exitCode).toBe(7);
    const b = await execa(server.env.CUA_DRIVER, ["call", "type_text"], { env, reject: false, input: '{"text":"hi"}' });
    expect(b.stdout).toBe('argv=["call","type_text"] stdin={"text":"hi"}');
    const req = seen.requests[0]!;
    expect(req.env.EXTRA).toBe("x=y");
    expect(req.env.PATH?.split(":")).not.toContain(server.dir);
    expect(req.env.CUA_DRIVER).toBe(process.env.CUA_DRIVER);
    expect(req.cwd).toBe(process.cwd());
  });

  it("mirrors a signal, and aborts the backend request when the shim is killed", async () => {
    const seen = { requests: [] as CliRequest[], aborted: 0, mcpLines: [] as string[] };
    await using server = await startShimServer({ backend: echoBackend(seen), shim: kind });
    const s = await execa(server.shimPath, ["sig", "{}"], { reject: false });
    expect(s.signal).toBe("SIGTERM");
    expect(s.stdout).toBe("partial");
    const hang = execa(server.shimPath, ["hang", "{}"], { reject: false });
    // killed only once the backend holds its request (a loaded machine starts the shim slowly)
    await until(() => seen.requests.some((r) => r.argv[0] === "hang"));
    expect(hang.exitCode).toBe(null); // still running
    hang.kill("SIGKILL");
    await hang;
    await until(() => seen.aborted > 0);
    expect(seen.aborted).toBe(1);
  });

  it("streams MCP lines both ways and propagates the exit code", async () => {
    const seen = { requests: [] as CliRequest[], aborted: 0, mcpLines: [] as string[] };
    await using server = await startShimServer({ backend: echoBackend(seen), shim: kind });
    const r = await execa(server.shimPath, ["mcp"], { reject: false, input: "one\ntwo\nquit\nnever\n" });
    expect(r.stdout).toBe("echo:one\necho:two");
    expect(r.exitCode).toBe(5);
    const e = await execa(server.shimPath, ["mcp"], { reject: false, input: "a\n" });
    expect(e.stdout).toBe("echo:a");
    expect(e.exitCode).toBe(0);
  });
});
