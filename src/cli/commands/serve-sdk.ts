// `serve --driver sdk[:VERSION]`: the published runtime as a live cua-driver stand-in (no cassette),
// as direct-mode MCP on this process's stdio or behind a cua-driver shim socket.
import { createInterface } from "node:readline";
import { UserError } from "../../errors.js";
import { startShimServer } from "../../shim-server/server.js";
import { sdkDriverVersion } from "../../transports/sdk/recording-driver.js";
import { createSdkBackend } from "../../transports/sdk/sdk-backend.js";
import { startBackendHttpServer } from "../../transports/http/backend-server.js";
import { isValidToken } from "../../transports/http/server.js";

export async function serveSdk(options: { driver: string; transport: string; port?: unknown }): Promise<number> {
  const version = sdkDriverVersion(options.driver);
  if (version === undefined) {
    throw new UserError(`--driver ${JSON.stringify(options.driver)} is not sdk[:VERSION]`, {
      code: "USAGE",
      field: "--driver",
      fix: "serve answers from a cassette (DIR) or from the published runtime (--driver sdk or --driver sdk:0.21.0).",
    });
  }
  const http = options.transport === "http" ? httpSettings(options.port) : undefined;
  const backend = await createSdkBackend({ version });
  process.stderr.write(`cua-contract serve: answering from @trycua/cua-driver ${backend.metadata.driverVersion} in process (${backend.location.source})\n`);
  if (http) {
    const server = await startBackendHttpServer({ backend, ...http });
    process.stderr.write(`cua-contract serve: MCP over HTTP listening on ${server.url}\n`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    });
    await server.close();
    await backend.close?.();
    return 0;
  }
  if (options.transport === "cli-socket") {
    const server = await startShimServer({ backend });
    process.stdout.write(`CUA_DRIVER=${server.shimPath}\nPATH=${server.env.PATH}\n`);
    process.stderr.write(`cua-contract serve: cua-driver shim ready; put ${server.dir} first on PATH (Ctrl-C to stop)\n`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    });
    await server.close();
    return 0;
  }
  const code = await new Promise<number>((resolve) => {
    const handler = backend.mcp(
      { argv: ["mcp"], cwd: process.cwd(), env: process.env as Record<string, string> },
      {
        send: (line) => process.stdout.write(`${line}\n`),
        stderr: (data) => process.stderr.write(data),
        exit: (exitCode) => {
          rl.close();
          process.stdin.pause();
          process.stdout.end(() => resolve(exitCode ?? 1));
        },
      },
    );
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    rl.on("line", (line) => handler.line(line));
    rl.on("close", () => handler.end());
  });
  await backend.close?.();
  return code;
}

// The port and token `cua-driver serve` reads for MCP over HTTP (CONTRACT.md §2.6), checked before the runtime loads.
function httpSettings(rawPort: unknown): { port: number; token: string } {
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
