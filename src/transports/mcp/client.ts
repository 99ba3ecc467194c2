import { performance } from "node:perf_hooks";
import type { InitializeResult, ToolsListResult } from "#src/schema/probe-snapshot.js";
import { InitializeResultSchema, ToolsListResultSchema } from "#src/schema/probe-snapshot.js";
import { type ModernEraFindings, probeModernEra, type RawAnswer, readResult, type StepOutcome } from "./probe-eras.js";
import { createLineFramer } from "#src/transports/mcp/wire/lines.js";
import { startDriverStream } from "#src/runtime/driver-process.js";

export interface McpProbeResult {
  initialize: StepOutcome<InitializeResult>;
  toolsList: StepOutcome<ToolsListResult>;
  /** Milliseconds each request took (to an answer, an error or its deadline). */
  durations: { initialize: number; toolsList: number };
  /** What `server/discover` found (probe-eras.ts); not asked once the process has gone or stopped answering. */
  modern?: ModernEraFindings;
}

/**
 * Starts `cua-driver mcp`, sends `initialize` then `tools/list` as newline-delimited JSON-RPC
 * (docs/reference/cua-driver-contract.md §2.2), then asks for the modern era (`server/discover`,
 * probe-eras.ts), and closes stdin. Each request has its own deadline.
 */
export async function probeMcp(options: { driver: string; args: string[]; timeoutMs: number; env: NodeJS.ProcessEnv }): Promise<McpProbeResult> {
  const child = startDriverStream(options.driver, options.args, { env: options.env });
  const waiting = new Map<number, (line: Record<string, unknown>) => void>();
  let stderr = "";
  let closed: string | undefined;
  child.stdout?.setEncoding("utf8");
  const lines = createLineFramer((raw) => {
    const line = raw.trim();
    if (!line) return;
    try {
      const msg = JSON.parse(line) as Record<string, unknown>;
      if (typeof msg.id === "number") waiting.get(msg.id)?.(msg);
    } catch {
      // Not JSON-RPC; the request waiting for this answer times out and says so.
    }
  });
  child.stdout?.on("data", (chunk: string) => lines.push(chunk));
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const exited = child.then((r) => {
    closed = `the mcp process exited (${r.exitCode ?? r.signal ?? "?"})${lastLine(stderr) ? `: ${lastLine(stderr)}` : ""}`;
    for (const resolve of waiting.values()) resolve({});
  });
  const call = (id: number, method: string, params: unknown): Promise<RawAnswer> =>
    new Promise((resolve) => {
      if (closed) return resolve({ failed: closed });
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve({ failed: `${method} got no answer within ${options.timeoutMs} ms`, timedOut: true });
      }, options.timeoutMs);
      waiting.set(id, (msg) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (closed && !("result" in msg) && !("error" in msg)) return resolve({ failed: closed });
        if (msg.error) return resolve({ error: msg.error as { code?: unknown } });
        resolve({ result: msg.result });
      });
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const request = async <T>(id: number, method: string, params: unknown, parse: (r: unknown) => T): Promise<StepOutcome<T>> =>
    readResult(method, await call(id, method, params), parse);
  try {
    let started = performance.now();
    const initialize = await request(
      1,
      "initialize",
      {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "cua-contract-probe", version: "1" },
      },
      (r) => InitializeResultSchema.parse(r),
    );
    const initializeMs = Math.round(performance.now() - started);
    started = performance.now();
    if (initialize.status === "succeeded") child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const toolsList = await request(2, "tools/list", {}, (r) => ToolsListResultSchema.parse(r));
    const durations = { initialize: initializeMs, toolsList: Math.round(performance.now() - started) };
    // a process that has gone, or stopped answering, is not asked again
    if (closed || (toolsList.status !== "succeeded" && toolsList.timedOut)) return { initialize, toolsList, durations };
    let next = 3;
    const modern = await probeModernEra((method, params) => call(next++, method, params));
    return { initialize, toolsList, durations, modern };
  } finally {
    child.stdin?.end();
    const killer = setTimeout(() => child.kill("SIGKILL"), 2000);
    child.kill("SIGTERM");
    await exited.catch(() => undefined);
    clearTimeout(killer);
  }
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1)?.trim() ?? "";
}
