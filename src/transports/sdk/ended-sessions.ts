/**
 * The daemon's ended-session guard for the per-call CLI path (docs/reference/cua-driver-contract.md §3.4): `cua-driver call`
 * goes through a daemon that remembers which labels `end_session` ended and rejects any later call
 * naming one (except `start_session`, which revives it) before dispatch. The runtime in process has
 * no daemon, so this bookkeeping stands in for it; MCP direct mode has none either and is not guarded.
 */
import { sessionEndedGuardText } from "#src/driver/messages.js";
import { member, parseSerdeJson, stringValue, type SerdeNode } from "#src/wire/json/tree.js";

export interface EndedSessions {
  /** The guard's stderr text when `tool` names an ended label, else undefined (dispatch the call). */
  guard(options: { tool: string; args: SerdeNode | undefined }): string | undefined;
  /** Notes a dispatched call's answer: a successful `end_session` ends its label, a successful `start_session` revives it. */
  answered(options: { tool: string; args: SerdeNode | undefined; rawJson: string }): void;
}

export function createEndedSessions(): EndedSessions {
  const ended = new Set<string>();
  return {
    guard({ tool, args }) {
      const label = sessionLabelOf(args);
      if (label === undefined || tool === "start_session" || !ended.has(label)) return undefined;
      return sessionEndedGuardText(label, tool);
    },
    answered({ tool, args, rawJson }) {
      if (tool !== "end_session" && tool !== "start_session") return;
      const label = sessionLabelOf(args);
      if (label === undefined || isErrorResult(rawJson)) return;
      if (tool === "end_session") ended.add(label);
      else ended.delete(label);
    },
  };
}

/** The `session` argument a call names, when it is a non-empty string. */
function sessionLabelOf(args: SerdeNode | undefined): string | undefined {
  const label = stringValue(member(args, "session"));
  return label ? label : undefined;
}

function isErrorResult(rawJson: string): boolean {
  try {
    const flag = member(parseSerdeJson(rawJson), "isError");
    return flag?.kind === "scalar" && flag.raw === "true";
  } catch {
    return true;
  }
}
