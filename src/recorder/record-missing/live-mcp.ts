import { spawn } from "node:child_process";
import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";

/** `cua-driver mcp` of an executable driver, line by line: what record-missing sends to it and hears back. */
export function spawnLiveMcp(options: { file: string; init: { argv: string[]; cwd: string; env: Record<string, string> }; io: McpIo }): McpSessionHandler {
  const { io } = options;
  const child = spawn(options.file, options.init.argv, { cwd: options.init.cwd || process.cwd(), env: options.init.env, stdio: ["pipe", "pipe", "pipe"] });
  child.on("error", (error) => {
    io.stderr(`cua-contract: cannot run the driver ${options.file}: ${error.message}\n`);
    io.exit(127);
  });
  child.stdin.on("error", () => {});
  let partial = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    partial += chunk;
    let nl: number;
    while ((nl = partial.indexOf("\n")) >= 0) {
      io.send(partial.slice(0, nl));
      partial = partial.slice(nl + 1);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => io.stderr(chunk));
  child.on("close", (code, signal) => io.exit(code, signal ?? undefined));
  return {
    line: (line) => {
      if (child.stdin.writable) child.stdin.write(`${line}\n`);
    },
    end: () => child.stdin.end(),
    gone: () => child.kill("SIGTERM"),
  };
}
