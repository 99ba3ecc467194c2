import { UserError } from "#src/errors.js";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Checks `--http-upstream`: an `http://` URL on loopback, as `cua-driver serve` binds it
 * (docs/reference/cua-driver-contract.md §2.6). The harness's bearer token is forwarded there, so nothing else is accepted.
 */
export function parseUpstreamUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`--http-upstream ${JSON.stringify(value)} is not a URL`, {
      code: "USAGE",
      field: "--http-upstream",
      fix: "Pass the address `cua-driver serve` prints, e.g. --http-upstream http://127.0.0.1:8765/mcp.",
    });
  }
  if (url.protocol !== "http:" || !LOOPBACK.has(url.hostname)) {
    throw new UserError(`--http-upstream ${JSON.stringify(value)} is not an http:// address on loopback`, {
      code: "USAGE",
      field: "--http-upstream",
      fix: "cua-driver serves MCP over HTTP on 127.0.0.1 only; pass e.g. --http-upstream http://127.0.0.1:8765/mcp.",
    });
  }
  return url;
}

/** Checks `--http-port`: 0 (a free port) to 65535. */
export function parseProxyPort(value: unknown): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UserError(`--http-port ${JSON.stringify(value)} is not a port`, {
      code: "USAGE",
      field: "--http-port",
      fix: "Pass a port from 1 to 65535, or 0 (the default) for a free one.",
    });
  }
  return port;
}
