import type { RecordedCall } from "./recorded-calls.js";
import type { SchemaProblem, ToolValidator } from "./schema-validator.js";

/** A recorded call that the candidate driver would reject or answer differently. */
export interface RecordingBreak {
  id: string;
  tool: string;
  cassette: string;
  event: number;
  line: number;
  /** `input`: the recorded request; `output`: the recorded response; `tool`: the tool is gone. */
  part: "tool" | "input" | "output";
  path: string;
  reason: string;
  message: string;
}

/**
 * A recorded response that lacks what the candidate now promises (a property it newly requires):
 * the recording is old, the harness is not broken. Reported with the command that re-records it.
 */
export interface StaleRecording {
  id: string;
  tool: string;
  cassette: string;
  event: number;
  line: number;
  /** JSON paths of the properties the candidate requires and the recording lacks. */
  missing: string[];
  message: string;
}

export interface CallCheck {
  call: RecordedCall;
  breaks: RecordingBreak[];
  stale: StaleRecording[];
  /** What was checked: `input`, `output`, or why something was not. */
  checked: string[];
}

/**
 * Checks each recorded request against the candidate's inputSchema (a request it would reject
 * breaks) and each recorded response from the consumer's side: it breaks only when the candidate's
 * outputSchema no longer allows a value the harness received; lacking a newly required property
 * makes it stale.
 */
export function checkRecordedCalls(calls: readonly RecordedCall[], validator: ToolValidator): CallCheck[] {
  return calls.map((call) => {
    const breaks: RecordingBreak[] = [];
    const stale: StaleRecording[] = [];
    const checked: string[] = [];
    const add = (part: RecordingBreak["part"], path: string, reason: string, event = call.event) =>
      breaks.push({
        id: `recording:${call.cassette}#${event}:${call.tool}:${part}:${path}`,
        tool: call.tool,
        cassette: call.cassette,
        event,
        line: call.line,
        part,
        path,
        reason,
        message: `${call.cassette} event ${event} (${call.tool}): ${part === "tool" ? reason : `${part} ${path} ${reason}`}`,
      });
    if (!validator.has(call.tool)) {
      add("tool", "$", `tool ${call.tool} is not in the candidate's tools/list`);
      return { call, breaks, stale, checked };
    }
    if (call.args !== undefined) {
      const problems = validator.check(call.tool, "inputSchema", call.args);
      if (problems) {
        checked.push("input");
        for (const [path, reason] of byPath(problems)) add("input", path, reason);
      }
    }
    if (call.output !== undefined && validator.hasOutputSchema(call.tool)) {
      const problems = validator.check(call.tool, "outputSchema", call.output);
      if (problems) {
        checked.push("output");
        const event = call.outputEvent ?? call.event;
        const disallowed = problems.length ? (validator.check(call.tool, "outputSchema", call.output, "consumer") ?? problems) : [];
        for (const [path, reason] of byPath(disallowed)) add("output", path, reason, event);
        if (problems.length && disallowed.length === 0) stale.push(staleRecording(call, event, problems));
      }
    }
    return { call, breaks, stale, checked };
  });
}

/** One reason per JSON path: a validator reports several for one value that fails an alternative. */
function byPath(problems: readonly SchemaProblem[]): Map<string, string> {
  const out = new Map<string, string[]>();
  // "must match a schema in anyOf" says nothing more when a deeper path names what is wrong.
  const deeper = (path: string) =>
    problems.some((p) => p.path !== path && (p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`) || (path === "$" && p.path !== "$")));
  for (const p of problems) {
    if (ALTERNATIVES.test(p.reason) && deeper(p.path)) continue;
    const reasons = out.get(p.path) ?? [];
    if (!reasons.includes(p.reason)) reasons.push(p.reason);
    out.set(p.path, reasons);
  }
  return new Map([...out].map(([path, reasons]) => [path, reasons.join("; ")]));
}

const ALTERNATIVES = /^must match (a schema in anyOf|exactly one schema in oneOf)$/;
const REQUIRED = /^must have required property '(.+)'$/;

function staleRecording(call: RecordedCall, event: number, problems: readonly SchemaProblem[]): StaleRecording {
  const missing = [
    ...new Set(
      problems.flatMap((p) => {
        const m = REQUIRED.exec(p.reason);
        return m ? [`${p.path === "$" ? "$" : p.path}.${m[1]}`] : [];
      }),
    ),
  ];
  const what = missing.length
    ? `lacks ${missing.join(", ")}, which the candidate now requires`
    : `matches the candidate's outputSchema only from the consumer's side (${problems.map((p) => p.reason).join("; ")})`;
  return {
    id: `stale:${call.cassette}#${event}:${call.tool}:output`,
    tool: call.tool,
    cassette: call.cassette,
    event,
    line: call.line,
    missing,
    message: `${call.cassette} event ${event} (${call.tool}): the recorded output ${what}`,
  };
}
