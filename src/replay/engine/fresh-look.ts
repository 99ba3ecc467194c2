import type { RecordedExchange } from "./exchanges.js";
import type { ReplayRequest } from "./request.js";

/**
 * A new look at a window built from a recorded one. The driver makes a new snapshot on every
 * `get_window_state` (a new `snapshot_id`, and element tokens `<snapshot_id>:<index>` of it), so a
 * recorded answer this replay has served already, served again, gets new ids: the recorded bytes with
 * the snapshot id replaced everywhere (the id, every token), the elements and their order unchanged
 * (docs/decisions/0186).
 */

/**
 * The snapshot id of the n-th look a replay builds (1, 2, …), in the driver's format `s` + 8 hex
 * digits. The driver counts its snapshots up from `s00000001`; these count from `s80000001`, a range
 * no recording reaches, so a built id is never one a recorded answer carries.
 */
export function freshSnapshotId(n: number): string {
  return `s${(0x80000000 + n).toString(16).padStart(8, "0")}`;
}

const SNAPSHOT_ID = /"snapshot_id":\s*"([^"\\]+)"/;

/** The snapshot id a recorded `get_window_state` answer carries, read from its bytes. */
export function recordedSnapshotId(x: RecordedExchange): string | undefined {
  const text = x.cli ? (typeof x.cli.stdout === "string" ? x.cli.stdout : undefined) : x.rpc?.response;
  return text === undefined ? undefined : SNAPSHOT_ID.exec(text)?.[1];
}

/** The recorded look with `recorded` replaced by `fresh` wherever it stands as an id (not inside base64 or a longer word). */
export function freshLook(x: RecordedExchange, recorded: string, fresh: string): RecordedExchange {
  const id = new RegExp(`(?<![A-Za-z0-9+/])${recorded.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9])`, "g");
  const rewrite = (text: string) => text.replace(id, fresh);
  const copy: RecordedExchange = { ...x };
  if (x.cli) {
    const { stdout, stderr, exitCode, signal, files } = x.cli;
    copy.cli = {
      stdout: typeof stdout === "string" ? rewrite(stdout) : stdout,
      stderr,
      exitCode,
      ...(signal !== undefined ? { signal } : {}),
      ...(files ? { files } : {}),
    };
  }
  if (x.rpc) {
    const { response, status, contentType, stream } = x.rpc;
    copy.rpc = {
      ...(response !== undefined ? { response: rewrite(response) } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(contentType !== undefined ? { contentType } : {}),
      ...(stream !== undefined ? { stream } : {}),
    };
  }
  return copy;
}

/**
 * The request as the recording would have sent it: an element token or snapshot id of a look the
 * replay built names the recorded look it was built from (the same elements at the same indexes).
 */
export function recordedForm(request: ReplayRequest, builtFrom: ReadonlyMap<string, string>): ReplayRequest {
  if (builtFrom.size === 0 || request.method !== "call" || !request.args || typeof request.args !== "object") return request;
  const args = request.args as Record<string, unknown>;
  const token = typeof args.element_token === "string" ? /^([^:]+)(:.*)$/.exec(args.element_token) : null;
  const fromToken = token ? builtFrom.get(token[1]!) : undefined;
  const fromSnapshot = typeof args.snapshot_id === "string" ? builtFrom.get(args.snapshot_id) : undefined;
  if (fromToken === undefined && fromSnapshot === undefined) return request;
  return {
    ...request,
    args: {
      ...args,
      ...(fromToken !== undefined ? { element_token: `${fromToken}${token![2]}` } : {}),
      ...(fromSnapshot !== undefined ? { snapshot_id: fromSnapshot } : {}),
    },
  };
}
