import { spawnDriver } from "#src/runtime/driver-process.js";
import type { McpIo, McpSessionHandler } from "#src/shim-server/backend.js";

/** `cua-driver mcp` of an executable driver, line by line: what record-missing sends to it and hears back. */
export function binaryMcpStream(options: { file: string; init: { argv: string[]; cwd: string; env: Record<string, string> }; io: McpIo }): McpSessionHandler {
  const { io } = options;
  const child = spawnDriver({ driver: options.file, ...options.init });
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
