// What every `serve` flavour (cassette or live runtime) shares: the HTTP settings `cua-driver serve`
// reads, running until Ctrl-C, a shim socket, and an MCP stdio session on this process's own stdio.
import { createInterface } from "node:readline";
import { stopSignal } from "#src/cli/run-context.js";
import { UserError } from "#src/errors.js";
import type { McpIo, McpSessionHandler, ShimBackend } from "#src/shim-server/backend.js";
import { startShimServer } from "#src/shim-server/server.js";
import { isValidToken } from "#src/transports/http/server.js";

/** How harnesses reach `serve`'s stand-in: MCP on stdio, a cua-driver shim socket, MCP over HTTP. */
export const SERVE_TRANSPORTS = ["mcp", "cli-socket", "http"] as const;
export type ServeTransport = (typeof SERVE_TRANSPORTS)[number];

// The port and token `cua-driver serve` reads for MCP over HTTP (docs/reference/cua-driver-contract.md §2.6), checked before anything starts.
export function httpSettings(rawPort: unknown): { port: number; token: string } {
  const raw = rawPort ?? process.env.CUA_DRIVER_RS_MCP_HTTP_PORT;
  const port = Number(raw);
  if (raw === undefined || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UserError(`no valid HTTP port (got ${JSON.stringify(raw ?? null)})`, {
      code: "USAGE",
      field: "--port",
      fix: "Pass --port N (0 picks a free one) or set CUA_DRIVER_RS_MCP_HTTP_PORT=1..65535, as for `cua-driver serve`.",
    });
  }
  const token = process.env.CUA_DRIVER_RS_MCP_HTTP_TOKEN ?? "";
  if (!isValidToken(token)) {
    throw new UserError("MCP over HTTP needs a bearer token in CUA_DRIVER_RS_MCP_HTTP_TOKEN (32-4096 characters, no whitespace)", {
      code: "USAGE",
      field: "CUA_DRIVER_RS_MCP_HTTP_TOKEN",
      fix: "Set it, e.g. `export CUA_DRIVER_RS_MCP_HTTP_TOKEN=$(openssl rand -hex 32)`, and send `Authorization: Bearer <token>`.",
    });
  }
  return { port, token };
}

/** Resolves on the first SIGINT or SIGTERM (or the abort of `main`'s signal), then stops listening for them. */
export function untilSignal(): Promise<void> {
  const stop = stopSignal();
  return new Promise((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      stop?.removeEventListener("abort", done);
      resolve();
    };
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
    if (stop?.aborted) done();
    else stop?.addEventListener("abort", done);
  });
}

/** A `cua-driver` shim socket over the backend, its CUA_DRIVER and PATH on stdout, until Ctrl-C. */
export async function serveShim(backend: ShimBackend): Promise<number> {
  const server = await startShimServer({ backend });
  process.stdout.write(`CUA_DRIVER=${server.shimPath}\nPATH=${server.env.PATH}\n`);
  process.stderr.write(`cua-contract serve: cua-driver shim ready; put ${server.dir} first on PATH (Ctrl-C to stop)\n`);
  await untilSignal();
  await server.close();
  return 0;
}

/** `cua-driver mcp` on this process's stdio; resolves with the exit code the session ended with. */
export function serveMcpStdio(open: (io: McpIo) => McpSessionHandler): Promise<number> {
  return new Promise((resolve) => {
    let signalled: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      // a client that stops the server with a signal still gets the log's summary: end as on EOF
      signalled = 128 + (signal === "SIGINT" ? 2 : 15);
      handler.end();
    };
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    const handler = open({
      send: (line) => process.stdout.write(`${line}\n`),
      stderr: (data) => process.stderr.write(data),
      exit: (code) => {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        rl.close();
        process.stdin.pause();
        process.stdout.end(() => resolve(signalled ?? code ?? 1));
      },
    });
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    rl.on("line", (line) => handler.line(line));
    rl.on("close", () => handler.end());
  });
}
