// `serve --driver sdk[:VERSION]`: the published runtime as a live cua-driver stand-in (no cassette),
// as direct-mode MCP on this process's stdio or behind a cua-driver shim socket.
import { UserError } from "#src/errors.js";
import { sdkDriverVersion } from "#src/recorder/sdk/recording-driver.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { startBackendHttpServer } from "#src/transports/http/backend-server.js";
import { httpSettings, serveMcpStdio, serveShim, untilSignal } from "./serve-io.js";

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
    await untilSignal();
    await server.close();
    await backend.close?.();
    return 0;
  }
  if (options.transport === "cli-socket") return await serveShim(backend);
  const code = await serveMcpStdio((io) => backend.mcp({ argv: ["mcp"], cwd: process.cwd(), env: process.env as Record<string, string> }, io));
  await backend.close?.();
  return code;
}
