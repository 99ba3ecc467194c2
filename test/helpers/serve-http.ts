import { execa } from "execa";
import { startCliInProcess } from "./run-cli-in-process.js";
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

/**
 * The same server run in this test process (`startCliInProcess`): its URL once it listens, and
 * `stop()` (or leaving an `await using` block), which ends it as SIGINT would and gives its exit code
 * and output. For tests of what the server answers and the replay behind it judges; the spawned one
 * above stays for the process itself (signals, stdio) and for a server that must run beside another
 * in-process command (one at a time in process).
 */
export async function startServeHttpInProcess(options: { args: string[]; token: string }) {
  const serve = startCliInProcess(["serve", ...options.args, "--transport", "http", "--port", "0"], {
    env: { CUA_DRIVER_RS_MCP_HTTP_TOKEN: options.token },
  });
  const url = (await serve.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  return {
    url,
    stop: serve.stop,
    [Symbol.asyncDispose]: async () => {
      await serve.stop();
    },
  };
}
