/**
 * The texts cua-driver 0.21 itself prints for transport failures (docs/reference/cua-driver-contract.md §1.6, §2.5, §6),
 * shared by every transport's fault rendering so they cannot drift apart.
 */

/** `cua-driver call` with no daemon listening (stderr, exit 1). */
export function daemonNotRunning(sock: string): string {
  return `Cua Driver daemon is not running on ${sock}.\nStart it first with: cua-driver serve --socket ${sock}\n`;
}

/** `cua-driver call` when the daemon request fails (stderr, exit 1). */
export function daemonRequestFailed(sock: string, error: string): string {
  return `Cua Driver daemon request on ${sock} failed: ${error}\n`;
}

export const DAEMON_CLOSED = "daemon closed connection without response";

/** The daemon client's error after its 120 s overall deadline with nothing received. */
export const DAEMON_TIMED_OUT = "timed out after 120s waiting for daemon response (received 0 bytes so far)";

/** The MCP proxy's JSON-RPC -32603 message when forwarding a call to the daemon fails. */
export function proxyForwardingError(tool: string, error: string): string {
  return `daemon transport error forwarding \`${tool}\`: ${error}`;
}

/** Rust's io error text for a refused unix-socket connect. */
export function connectRefused(sock: string): string {
  return `connect to ${sock}: Connection refused (os error 111)`;
}

/** The Linux default socket as the docs print it (used when no socket is known). */
export const EXAMPLE_SOCKET = "/home/user/.cache/cua-driver/cua-driver.sock";

/** Exit status of a Rust process that panics: how a direct-mode `cua-driver mcp` dies mid-call. */
export const PANIC_EXIT_CODE = 101;
