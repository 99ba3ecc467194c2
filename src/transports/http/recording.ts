// Recording MCP over HTTP: a loopback proxy in front of `cua-driver serve` (docs/reference/cua-driver-contract.md §2.6).
import { UserError } from "#src/errors.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";
import { startHttpRecordingProxy, type HttpRecordingProxy } from "./recording-proxy.js";
import { parseProxyPort, parseUpstreamUrl } from "./upstream-url.js";

export interface HttpRecordingOptions {
  /** `--http-upstream`: the `cua-driver serve` MCP-over-HTTP endpoint to forward to. */
  httpUpstream?: string;
  /** `--http-port`: the proxy's port (default: a free one). */
  httpPort?: number;
}

/** Checks the HTTP flags before anything runs; undefined when HTTP is not recorded. */
export function checkHttpRecording(options: HttpRecordingOptions): { upstream: URL; port: number } | undefined {
  if (options.httpUpstream === undefined) {
    if (options.httpPort === undefined) return undefined;
    throw new UserError("--http-port needs --http-upstream", {
      code: "USAGE",
      field: "--http-port",
      fix: "Name the `cua-driver serve` endpoint to record, e.g. --http-upstream http://127.0.0.1:8765/mcp.",
    });
  }
  return { upstream: parseUpstreamUrl(options.httpUpstream), port: parseProxyPort(options.httpPort ?? 0) };
}

/**
 * The record session's HTTP part: the proxy, with the tokens the harness environment holds kept
 * off disk, and its warnings collected for the session's result.
 */
export async function startHttpRecording(
  options: RecordingParts & { http: { upstream: URL; port: number }; env: Record<string, string>; warnings: string[] },
): Promise<HttpRecordingProxy> {
  return await startHttpRecordingProxy({
    ...options,
    upstream: options.http.upstream,
    port: options.http.port,
    tokens: [options.env.CUA_DRIVER_RS_MCP_HTTP_TOKEN ?? ""],
    onWarning: (w) => options.warnings.push(w),
  });
}
