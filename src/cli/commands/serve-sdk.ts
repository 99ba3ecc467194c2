// `serve --driver sdk[:VERSION]`: the published runtime as a live cua-driver stand-in (no cassette),
// as direct-mode MCP on this process's stdio or behind a cua-driver shim socket.
import { UserError } from "#src/errors.js";
import { sdkDriverVersion } from "#src/recorder/sdk/recording-driver.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { startBackendHttpServer } from "#src/transports/http/backend-server.js";
import { httpSettings, serveMcpStdio, serveShim, untilSignal, type ServeTransport } from "./serve-io.js";

type SdkBackend = Awaited<ReturnType<typeof createSdkBackend>>;

/**
 * How the runtime is mounted on each of serve's transports, keyed by its name (a transport added to
 * SERVE_TRANSPORTS fails the type-check here until it has its mount): its settings are checked
 * first, before the runtime loads, and give the mount.
 */
const MOUNT: { readonly [T in ServeTransport]: (port: unknown) => (backend: SdkBackend) => Promise<number> } = {
  http(port) {
    const http = httpSettings(port);
    return async (backend) => {
      const server = await startBackendHttpServer({ backend, ...http });
      process.stderr.write(`cua-contract serve: MCP over HTTP listening on ${server.url}\n`);
      await untilSignal();
      await server.close();
      await backend.close?.();
      return 0;
    };
  },
  "cli-socket": () => (backend) => serveShim(backend),
  mcp: () => async (backend) => {
    const code = await serveMcpStdio((io) => backend.mcp({ argv: ["mcp"], cwd: process.cwd(), env: process.env as Record<string, string> }, io));
    await backend.close?.();
    return code;
  },
};

export async function serveSdk(options: { driver: string; transport: ServeTransport; port?: unknown }): Promise<number> {
  const version = sdkDriverVersion(options.driver);
  if (version === undefined) {
    throw new UserError(`--driver ${JSON.stringify(options.driver)} is not sdk[:VERSION]`, {
      code: "USAGE",
      field: "--driver",
      fix: "serve answers from a cassette (DIR) or from the published runtime (--driver sdk or --driver sdk:0.21.0).",
    });
  }
  const mount = MOUNT[options.transport](options.port);
  const backend = await createSdkBackend({ version });
  process.stderr.write(`cua-contract serve: answering from @trycua/cua-driver ${backend.metadata.driverVersion} in process (${backend.location.source})\n`);
  return await mount(backend);
}
