// A client that stops `serve --transport mcp` with a signal (cua's release probe does) still gets a
// complete replay log: the stream's close and the summary are written before the process ends.
import { execa } from "execa";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../helpers/run-cli.js";
import { tmpDir } from "../helpers/tmp-dir.js";

describe("serve --transport mcp stopped by a signal", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("after %s the log ends with the stream's close and the summary", { timeout: 30_000 }, async (signal) => {
    await using dir = await tmpDir();
    const log = path.join(dir.path, "serve.jsonl");
    const server = execa(process.execPath, [cliPath, "serve", path.join(repoRoot, "recordings/gtk3-demo-mcp"), "--transport", "mcp", "--log", log], {
      reject: false,
    });
    const answered = new Promise<string>((resolve) => server.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString())));
    server.stdin!.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n');
    expect(await answered).toContain('"serverInfo"');
    server.kill(signal);
    const done = await server;
    expect(done.exitCode).toBe(signal === "SIGTERM" ? 143 : 130);
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; event?: string });
    expect(entries.at(-2)).toMatchObject({ type: "stream", event: "close" });
    expect(entries.at(-1)).toMatchObject({ type: "summary", served: 1 });
  });
});
