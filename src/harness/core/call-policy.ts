import { hasFlag } from "#src/driver/catalogue.js";
import type { Driver, Reply, ToolInfo } from "#src/driver/port.js";
import { isTransportFailure } from "#src/driver/port.js";
import type { StepResult } from "#src/schema/harness-step.js";
import { isSessionEnded } from "./reply-fields.js";
import { replySucceeded, type HarnessParts } from "./session-parts.js";
import { blocked, type StepRecorder } from "./step-recorder.js";

export type CallPurpose = Parameters<StepRecorder["record"]>[3];

/** How the session stands with the driver, for `HarnessSession.state`. */
export interface CallPolicyState {
  started: boolean;
  suspect: boolean;
  rebuilds: number;
  revivals: number;
  /** Why the session cannot be used at all (contract gaps, failed rebuild). */
  unavailable?: string;
}

/**
 * Every driver call the session makes, fail-closed: a call that throws is a transport error, an
 * unknown outcome makes the session suspect (rebuilt before the next call) and a mutation is
 * never re-sent unless the policy says so; an ended session is revived.
 */
export interface CallPolicy {
  call(rec: StepRecorder, tool: string, args: Record<string, unknown>, purpose: CallPurpose): Promise<Reply>;
  read(rec: StepRecorder, tool: string, args: Record<string, unknown>, purpose: "observe" | "lease_check" | "refresh" | "action"): Promise<Reply>;
  mutate(rec: StepRecorder, tool: string, args: Record<string, unknown>): Promise<{ reply: Reply; revivedWithoutReplay: boolean }>;
  /** Startup, then a rebuild if the session is suspect. Returns a blocked result when it cannot go on. */
  ready(rec: StepRecorder): Promise<StepResult | undefined>;
  listTools(): Promise<ToolInfo[]>;
  /** The driver's tools, when listed since the last rebuild. */
  readonly tools: readonly ToolInfo[] | undefined;
  readonly state: CallPolicyState;
}

export function createCallPolicy(options: {
  driver: Driver;
  label: string;
  /** The label is declared already (given by the caller): every call names it. */
  declared: boolean;
  timeoutMs: number;
  parts: HarnessParts;
  contract?: unknown;
  /** A mutation's outcome is unknown: input waits for a fresh observation. */
  requireFreshState(reason: string): void;
}): CallPolicy {
  const { driver, label, timeoutMs, parts } = options;
  let declared = options.declared;
  let started = false;
  let suspect = false;
  /** The driver said the session ended and the revival was refused: the next step revives first. */
  let ended = false;
  let rebuilds = 0;
  let revivals = 0;
  let unavailable: string | undefined;
  let tools: ToolInfo[] | undefined;

  async function call(rec: StepRecorder, tool: string, args: Record<string, unknown>, purpose: CallPurpose): Promise<Reply> {
    const full = declared && !("session" in args) ? { ...args, session: label } : args;
    let reply: Reply;
    try {
      reply = await driver.call(tool, full, { timeoutMs });
    } catch (error) {
      reply = { kind: "transport_error", tool, message: error instanceof Error ? error.message : String(error) };
    }
    rec.record(tool, full, reply, purpose);
    return reply;
  }

  async function listTools(): Promise<ToolInfo[]> {
    if (!tools) {
      try {
        tools = await driver.listTools();
      } catch {
        tools = [];
      }
    }
    return tools;
  }

  async function rebuild(rec: StepRecorder): Promise<boolean> {
    rebuilds += 1;
    tools = undefined;
    const ok = await parts.rebuild.rebuild({ label, call: (tool, args) => call(rec, tool, args, "rebuild") });
    if (ok) {
      suspect = false;
      ended = false;
      declared = true;
    }
    return ok;
  }

  async function ready(rec: StepRecorder): Promise<StepResult | undefined> {
    if (!started) {
      started = true;
      if (options.contract !== undefined && parts.contractCheck) {
        const check = await parts.contractCheck({ contract: options.contract, tools: await listTools() });
        if (!check.ok) unavailable = `the driver does not meet the contract: ${check.gaps.join("; ")}`;
      }
      if (!unavailable && options.declared) await lifecycle(rec, "startup");
    }
    if (unavailable) return blocked(rec, "session_unavailable", `The session cannot be used: ${unavailable}.`);
    if (suspect && !(await rebuild(rec))) {
      return blocked(rec, "session_unavailable", "The session is suspect and could not be rebuilt (start_session failed). No input was sent; try again later.");
    }
    if (ended && !(await revive(rec))) {
      return blocked(rec, "session_unavailable", "The session ended and could not be revived (start_session failed). No input was sent; try again later.");
    }
    return undefined;
  }

  /** A lifecycle call lost in transport leaves the session in an unknown state: suspect. */
  async function lifecycle(rec: StepRecorder, purpose: "revive" | "startup"): Promise<boolean> {
    const reply = await call(rec, "start_session", { session: label }, purpose);
    if (isTransportFailure(reply)) suspect = true;
    const ok = replySucceeded(reply);
    if (purpose === "revive") ended = !ok && !isTransportFailure(reply);
    return ok;
  }

  async function revive(rec: StepRecorder): Promise<boolean> {
    revivals += 1;
    return lifecycle(rec, "revive");
  }

  async function read(
    rec: StepRecorder,
    tool: string,
    args: Record<string, unknown>,
    purpose: "observe" | "lease_check" | "refresh" | "action",
  ): Promise<Reply> {
    let reply = await call(rec, tool, args, purpose);
    if (isTransportFailure(reply)) {
      const d = parts.unknownOutcome.afterReadFailure(reply, 0);
      if (d.suspect) suspect = true;
      if (d.retry && (!suspect || (await rebuild(rec)))) reply = await call(rec, tool, args, "retry");
      if (isTransportFailure(reply)) suspect = suspect || d.suspect;
    } else if (
      !hasFlag(tool, "session-lifecycle") &&
      isSessionEnded(reply) &&
      (await revive(rec)) &&
      parts.unknownOutcome.replayAfterRevival({ tool, readOnly: true })
    ) {
      reply = await call(rec, tool, args, "retry");
    }
    return reply;
  }

  async function mutate(rec: StepRecorder, tool: string, args: Record<string, unknown>): Promise<{ reply: Reply; revivedWithoutReplay: boolean }> {
    let reply = await call(rec, tool, args, "action");
    if (isTransportFailure(reply)) {
      const d = parts.unknownOutcome.afterMutationFailure(reply);
      if (d.suspect) suspect = true;
      if (d.requireObservation) options.requireFreshState(`the outcome of ${tool} is unknown`);
      if (d.resend) {
        const again = await call(rec, tool, args, "retry");
        if (!isTransportFailure(again)) reply = again;
      }
      return { reply, revivedWithoutReplay: false };
    }
    if (!hasFlag(tool, "session-lifecycle") && isSessionEnded(reply) && (await revive(rec))) {
      if (!parts.unknownOutcome.replayAfterRevival({ tool, readOnly: false })) return { reply, revivedWithoutReplay: true };
      reply = await call(rec, tool, args, "retry");
    }
    return { reply, revivedWithoutReplay: false };
  }

  return {
    call,
    read,
    mutate,
    ready,
    listTools,
    get tools() {
      return tools;
    },
    get state(): CallPolicyState {
      return { started, suspect, rebuilds, revivals, ...(unavailable ? { unavailable } : {}) };
    },
  };
}
