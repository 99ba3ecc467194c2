import { execa } from "execa";
import { cliPath } from "./run-cli.js";

/** `cua-contract serve DIR --transport http` on a free port: its URL once it listens, stopped (SIGTERM) on dispose. */
export async function startServeHttp(options: { cassette: string; token: string; extra?: string[] }) {
  const child = execa(process.execPath, [cliPath, "serve", options.cassette, "--transport", "http", "--port", "0", ...(options.extra ?? [])], {
    env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: options.token },
    reject: false,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.once("exit", () => reject(new Error(`serve exited: ${err}`)));
  });
  return {
    child,
    url,
    [Symbol.asyncDispose]: async () => {
      child.kill("SIGTERM");
      await child;
    },
  };
}
