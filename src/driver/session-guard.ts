/**
 * The daemon's guard for a call naming a session that `end_session` ended (cua-driver 0.21.0
 * `serve.rs`, docs/reference/cua-driver-contract.md §3.4): the call is rejected before dispatch, and `cua-driver call`
 * prints this text on stderr and exits 1. Shared by the replay engine and the SDK backend.
 */
export function sessionEndedGuardText(label: string, tool: string): string {
  return `session '${label}' has ended; tool call '${tool}' was rejected. Call start_session with this id to revive it before issuing further actions, or use a new session id.`;
}
