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

export interface CallCheck {
  call: RecordedCall;
  breaks: RecordingBreak[];
  /** What was checked: `input`, `output`, or why something was not. */
  checked: string[];
}

/** Checks each recorded request against the candidate's inputSchema and each response against its outputSchema. */
export function checkRecordedCalls(calls: readonly RecordedCall[], validator: ToolValidator): CallCheck[] {
  return calls.map((call) => {
    const breaks: RecordingBreak[] = [];
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
      return { call, breaks, checked };
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
        for (const [path, reason] of byPath(problems)) add("output", path, reason, call.outputEvent ?? call.event);
      }
    }
    return { call, breaks, checked };
  });
}

/** One reason per JSON path: a validator reports several for one value that fails an alternative. */
function byPath(problems: readonly SchemaProblem[]): Map<string, string> {
  const out = new Map<string, string[]>();
  for (const p of problems) {
    const reasons = out.get(p.path) ?? [];
    if (!reasons.includes(p.reason)) reasons.push(p.reason);
    out.set(p.path, reasons);
  }
  return new Map([...out].map(([path, reasons]) => [path, reasons.join("; ")]));
}
