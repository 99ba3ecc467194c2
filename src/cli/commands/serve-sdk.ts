// `serve --driver sdk[:VERSION]`: the published runtime as a live cua-driver stand-in (no cassette),
// as direct-mode MCP on this process's stdio or behind a cua-driver shim socket.
import { createInterface } from "node:readline";
import { UserError } from "../../errors.js";
import { startShimServer } from "../../shim-server/server.js";
import { sdkDriverVersion } from "../../transports/sdk/recording-driver.js";
import { createSdkBackend } from "../../transports/sdk/sdk-backend.js";

export async function serveSdk(options: { driver: string; transport: string }): Promise<number> {
  const version = sdkDriverVersion(options.driver);
  if (version === undefined) {
    throw new UserError(`--driver ${JSON.stringify(options.driver)} is not sdk[:VERSION]`, {
      code: "USAGE",
      field: "--driver",
      fix: "serve answers from a cassette (DIR) or from the published runtime (--driver sdk or --driver sdk:0.21.0).",
    });
  }
  if (options.transport === "http") {
    throw new UserError("--transport http serves cassettes only", { code: "USAGE", field: "--transport", fix: "Use --transport mcp or cli-socket with --driver sdk." });
  }
  const backend = await createSdkBackend({ version });
  process.stderr.write(`cua-contract serve: answering from @trycua/cua-driver ${backend.metadata.driverVersion} in process (${backend.location.source})\n`);
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
