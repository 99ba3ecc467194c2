/**
 * The texts cua-driver 0.21 itself prints outside a tool result (docs/reference/cua-driver-contract.md §1.6, §1.7, §2.5, §6) — the daemon client's failures, the
 * daemon's guards and status lines, the MCP proxy's errors — each beside the reader that recognises
 * it (docs/decisions/0220). Whoever renders a fault writes these texts, whoever reads a recording or
 * an answer parses them with the readers here, so the two cannot drift apart.
 */

import { defaultSocket } from "./cli-surface.js";

// --- the daemon client (`cua-driver call`, stderr, exit 1) ---

/** How every text of the daemon client about the daemon begins. */
export const DAEMON_PREFIX = "Cua Driver daemon ";

/** What the daemon client says, bare, when no daemon runs (`status`, `stop`, the in-process transport). */
export const DAEMON_NOT_RUNNING = `${DAEMON_PREFIX}is not running`;

/** `cua-driver call` with no daemon listening (stderr, exit 1). */
export function daemonNotRunning(sock: string): string {
  return `${DAEMON_NOT_RUNNING} on ${sock}.\nStart it first with: cua-driver serve --socket ${sock}\n`;
}

/** `cua-driver call` when the daemon request fails (stderr, exit 1). */
export function daemonRequestFailed(sock: string, error: string): string {
  return `${DAEMON_PREFIX}request on ${sock} failed: ${error}\n`;
}

/** The daemon went away mid-call: the request failed with this error. */
export const DAEMON_CLOSED = "daemon closed connection without response";

/** The daemon client's error when its deadline passes (the in-process replayer says it so, without a byte count). */
export function daemonTimedOutAfter(seconds: number): string {
  return `timed out after ${seconds}s waiting for daemon response`;
}

/** The daemon client's error after its 120 s overall deadline with nothing received. */
export const DAEMON_TIMED_OUT = `${daemonTimedOutAfter(120)} (received 0 bytes so far)`;

/**
 * What a failed `cua-driver call` says happened, read from its stderr: the daemon died mid-call
 * (`DAEMON_CLOSED`), the client gave up waiting (`DAEMON_TIMED_OUT`, any deadline), the daemon could
 * not be reached or spoke another contract (`daemonNotRunning`, `daemonRequestFailed`, `… is
 * incompatible`); undefined for the tool's own failure.
 */
export function daemonFailureKind(stderr: string): "daemon_died" | "timeout" | "transport_error" | undefined {
  if (stderr.includes(DAEMON_CLOSED)) return "daemon_died";
  if (/timed out after \d+s waiting for daemon response/.test(stderr)) return "timeout";
  if (/daemon request on .* failed|is not running on|is incompatible/.test(stderr)) return "transport_error";
  return undefined;
}

/** Whether a failed call's stderr says the call may have run: the daemon died or the client gave up waiting. */
export function callMayHaveRun(stderr: string): boolean {
  return stderr.includes(DAEMON_TIMED_OUT) || stderr.includes(DAEMON_CLOSED);
}

/**
 * Whether an answer's text says no driver was there to answer: the daemon client's texts (with or
 * without a socket), a failed daemon request, or Node's refused connect from a client of our own.
 */
export function saysDaemonUnreachable(text: string): boolean {
  return /daemon is not running|is not running on|daemon request on .* failed|ECONNREFUSED/i.test(text);
}

// --- the daemon's own lines (`status`, `serve`) ---

/** `cua-driver status` when a daemon runs (stdout, exit 0). */
export function daemonRunningStatus(socket: string, pid: number): string {
  return `${DAEMON_PREFIX}is running\n  socket: ${socket}\n  pid: ${pid}\n`;
}

/** The socket a `status` output names (`  socket: <path>`), if any. */
export function socketOfStatus(stdout: string): string | undefined {
  return /^\s*socket:\s*(.+?)\s*$/m.exec(stdout)?.[1];
}

/** `cua-driver serve` once it listens (stderr). */
export function daemonListening(socket: string): string {
  return `${DAEMON_PREFIX}listening on ${socket}\n`;
}

/** `cua-driver serve` after a `stop` (stderr, exit 0). */
export const DAEMON_SHUTTING_DOWN = `${DAEMON_PREFIX}shutting down.\n`;

/** `cua-driver serve` when a daemon already runs on the socket (stderr, exit 1). */
export function daemonAlreadyRunning(socket: string, pid: number): string {
  return `${DAEMON_PREFIX}is already running on ${socket} (pid ${pid}). Run \`cua-driver stop\` first.\n`;
}

// --- the daemon's guards ---

/**
 * The daemon's guard for a call naming a session that `end_session` ended (cua-driver 0.21.0
 * `serve.rs`, docs/reference/cua-driver-contract.md §3.4): the call is rejected before dispatch, and `cua-driver call` prints this text on
 * stderr and exits 1.
 */
export function sessionEndedGuardText(label: string, tool: string): string {
  return `session '${label}' has ended; tool call '${tool}' was rejected. Call start_session with this id to revive it before issuing further actions, or use a new session id.`;
}

/** Whether a stderr is the ended-session guard's text. */
export function isSessionEndedGuardText(stderr: string): boolean {
  return /session '.*' has ended/.test(stderr);
}

/** What the binary says for a name with no risk classification (authorization runs before lookup). */
export function permissionDeniedText(tool: string): string {
  return `Permission denied: tool '${tool}' has no reviewed risk classification`;
}

/** What the binary says for a name it has classified but does not register (exit `USAGE_EXIT_CODE`). */
export function unknownToolText(tool: string): string {
  return `Unknown tool: ${tool}`;
}

/** The binary's exit status for a usage error (sysexits EX_USAGE): an unknown tool, a flag a subcommand refuses. */
export const USAGE_EXIT_CODE = 64;

// --- the MCP proxy and the process ---

/** The MCP proxy's JSON-RPC -32603 message when forwarding a call to the daemon fails. */
export function proxyForwardingError(tool: string, error: string): string {
  return `daemon transport error forwarding \`${tool}\`: ${error}`;
}

/** Rust's io error text for a refused unix-socket connect. */
export function connectRefused(sock: string): string {
  return `connect to ${sock}: Connection refused (os error 111)`;
}

/** The Linux default socket as the docs print it (used when no socket is known). */
export const EXAMPLE_SOCKET = defaultSocket("/home/user");

/** Exit status of a Rust process that panics: how a direct-mode `cua-driver mcp` dies mid-call. */
export const PANIC_EXIT_CODE = 101;

/**
 * The -32602 message of cua-driver ≥ 0.28 on stdio for a legacy request (no era metadata) before a
 * legacy `initialize` on the connection (`ProtocolSession`, trycua/cua 4d6f4a55 mcp_wire.rs:25-41).
 */
export const MISSING_ERA_METADATA = "Missing required per-request MCP metadata";

/** The JSON-RPC code of every era refusal but the unsupported version's (invalid params). */
export const INVALID_PARAMS_CODE = -32602;
