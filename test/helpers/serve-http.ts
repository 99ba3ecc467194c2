import { execa } from "execa";
import { cliPath } from "./run-cli.js";

/**
 * `cua-contract serve ARGS… --transport http --port 0` (ARGS: a cassette directory or `--driver …`,
 * then any options): its URL once it listens and its stderr so far; SIGTERM on dispose (or stop it
 * yourself through `child`).
 */
export async function startServeHttp(options: { args: string[]; token: string }) {
  const child = execa(process.execPath, [cliPath, "serve", ...options.args, "--transport", "http", "--port", "0"], {
    env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: options.token },
    reject: false,
  });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
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
    stderr: () => err,
    [Symbol.asyncDispose]: async () => {
      child.kill("SIGTERM");
      await child;
    },
  };
}
