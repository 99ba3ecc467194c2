import { toolsWith } from "#src/driver/catalogue.js";
import type { Fault } from "#src/schema/fault-plan.js";
import type { ReplayTransport } from "#src/schema/replay-log.js";

/**
 * Faults that outlast the call they fire on (docs/faults.md, "Faults that last"): a `stall` makes
 * every later answer late, a `freeze` leaves every later call unanswered, a `session_expired`
 * refuses every later session call. Each lasts until the harness rebuilds as the driver would
 * recover: a `start_session`, or (MCP stdio, where the stream is the driver's process) a request on
 * a new stream. Pure state, advanced once per tool call in order, so a seed replays identically.
 */

type StickyKind = "stall" | "freeze" | "session_expired";
type StickyFault = Extract<Fault, { kind: StickyKind }>;

export interface StickyRequest {
  tool: string;
  transport?: ReplayTransport | undefined;
  stream?: number | undefined;
  /** When the call arrived (ms since the replay started); the idle timeout of `session_expired` reads it. */
  tMs?: number | undefined;
  /** The explicit session the call names (undefined: the implicit one). */
  label?: string | undefined;
}

/** Health and session-status reads: they stay healthy while a session is expired (and never refresh its idle time). */
export const HEALTH_TOOLS: ReadonlySet<string> = new Set(toolsWith("health"));

interface Active {
  rule: number;
  fault: StickyFault;
  /** The stream it began on (MCP stdio: a request on another stream is a new driver process). */
  stream?: number | undefined;
  transport?: ReplayTransport | undefined;
  /** session_expired with after_ms: armed, not yet expired; the last session call's time. */
  idleSince?: number | undefined;
}

export function isStickyFault(fault: Fault): fault is StickyFault {
  return fault.kind === "stall" || fault.kind === "freeze" || fault.kind === "session_expired";
}

export interface StickyFaults {
  /**
   * The fault for this call, given what the plan's rules chose for it (`chosen`, may be
   * undefined): a freeze answers nothing, an expired session refuses, a rule's own fault
   * comes next, and a stall makes any other call late.
   */
  apply(request: StickyRequest, chosen: { rule: number; fault: Fault } | undefined): { rule: number; fault: Fault } | undefined;
}

/** Whether this call rebuilds what a lasting fault broke: a start_session, or a new MCP stdio process. */
function rebuilds(request: StickyRequest, active: Active): boolean {
  if (request.tool === "start_session") return true;
  return (
    request.transport === "mcp" && active.transport === "mcp" && request.stream !== undefined && active.stream !== undefined && request.stream !== active.stream
  );
}

export function createStickyFaults(): StickyFaults {
  const active = new Map<StickyKind, Active>();
  return {
    apply(request, chosen) {
      for (const [kind, a] of active) if (rebuilds(request, a)) active.delete(kind);
      const health = HEALTH_TOOLS.has(request.tool);
      // a session call on the implicit session of a per-call CLI run gets a fresh session: nothing to expire
      const hasSession = !(request.transport === "cli" && request.label === undefined) && request.tool !== "start_session" && request.tool !== "end_session";
      const freeze = active.get("freeze");
      if (freeze) return { rule: freeze.rule, fault: freeze.fault };
      const expired = active.get("session_expired");
      if (expired && !health && hasSession) {
        const idle = expired.idleSince;
        if (idle === undefined) return { rule: expired.rule, fault: expired.fault };
        const after = (expired.fault as Extract<Fault, { kind: "session_expired" }>).after_ms ?? 0;
        if (request.tMs !== undefined && request.tMs - idle >= after) {
          expired.idleSince = undefined;
          return { rule: expired.rule, fault: expired.fault };
        }
        // health reads and refused calls do not refresh the idle time; a served session call does
        if (!chosen) expired.idleSince = request.tMs ?? idle;
      }
      if (chosen && isStickyFault(chosen.fault)) {
        const f = chosen.fault;
        const base: Active = { rule: chosen.rule, fault: f, stream: request.stream, transport: request.transport };
        if (f.kind === "session_expired") {
          if (f.after_ms !== undefined && f.after_ms > 0) {
            // armed: the session ends once no session call came for after_ms; this call is served
            active.set("session_expired", { ...base, idleSince: request.tMs ?? 0 });
            return stallOf(active, undefined);
          }
          if (health || !hasSession) {
            active.set("session_expired", base);
            return stallOf(active, undefined);
          }
        }
        active.set(f.kind, base);
        return chosen;
      }
      return chosen ?? stallOf(active, undefined);
    },
  };
}

function stallOf(active: ReadonlyMap<StickyKind, Active>, fallback: { rule: number; fault: Fault } | undefined) {
  const stall = active.get("stall");
  return stall ? { rule: stall.rule, fault: stall.fault } : fallback;
}
