import type { Driver, Reply, ToolInfo, ToolResult } from "#src/driver/port.js";
import { loadSdk, type LoadSdkOptions } from "#src/runtime/load.js";
import type { SdkDriver } from "#src/runtime/sdk-types.js";

/** Which runtime version the in-process adapter loads, and from where. */
export interface SdkDriverOptions {
  /** `@trycua/cua-driver` version (default: the one the project pins). */
  version?: string;
  load?: LoadSdkOptions;
  /** Deadline per call when the caller gives none (default 30 s). */
  timeoutMs?: number;
}

/** A Driver over the published runtime in this process; dispose it to release the runtime. */
export interface InProcessSdkDriver extends Driver, AsyncDisposable {
  close(): Promise<void>;
}

/**
 * The real cua-driver runtime in process (`@trycua/cua-driver`): the same Rust runtime the CLI
 * and `cua-driver mcp` run, without a binary. A call past its deadline resolves as a timeout
 * (the runtime may still finish it: the outcome is unknown).
 */
export async function createSdkDriver(options: SdkDriverOptions = {}): Promise<InProcessSdkDriver> {
  const sdk = await loadSdk(options.version, options.load ?? {});
  const runtime: SdkDriver = await sdk.CuaDriver.create();
  return {
    async call(tool, args, callOptions = {}): Promise<Reply> {
      const timeout = callOptions.timeoutMs ?? options.timeoutMs ?? 30_000;
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<Reply>((resolve) => {
        timer = setTimeout(() => {
          abort.abort();
          resolve({ kind: "timeout", tool, message: `${tool} did not answer within ${timeout} ms` });
        }, timeout);
      });
      const answer = runtime
        .callTool(tool, JSON.stringify(args), { signal: abort.signal })
        .then((r): Reply => ({ ...(JSON.parse(r.rawJson) as ToolResult), raw: r.rawJson }))
        .catch((error: unknown): Reply => ({ kind: "transport_error", tool, message: error instanceof Error ? error.message : String(error) }));
      try {
        return await Promise.race([answer, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
    async listTools(): Promise<ToolInfo[]> {
      return (JSON.parse(await runtime.listToolsJson()) as { tools: ToolInfo[] }).tools;
    },
    async close() {
      await runtime.shutdown?.();
    },
    async [Symbol.asyncDispose]() {
      await runtime.shutdown?.();
    },
  };
}
