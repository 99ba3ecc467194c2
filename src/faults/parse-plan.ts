import { UserError } from "#src/errors.js";
import { FaultMatchSchema, FaultPlanSchema, FaultSchema, type Fault, type FaultPlan } from "#src/schema/fault-plan.js";
import { FaultKindSchema } from "#src/schema/replay-log.js";
import { firstInvalidUtf8 } from "#src/util/utf8.js";
import { jsonErrorLine, jsonPathLine } from "#src/util/json-error-line.js";

const FIX = "See docs/faults.md for the plan format.";

/**
 * Parse and validate a fault plan's JSON text (or the file's bytes, which must be UTF-8); every
 * problem names the file, the line where it can, and the field in the scenarios' notation.
 */
export function parseFaultPlan(options: { text: string | Uint8Array; file: string }): FaultPlan {
  const { file } = options;
  let text: string;
  if (typeof options.text === "string") text = options.text;
  else {
    const bad = firstInvalidUtf8(options.text);
    if (bad !== undefined) {
      throw new UserError(`fault plan is not valid UTF-8 (byte offset ${bad}: 0x${options.text[bad]!.toString(16).padStart(2, "0")})`, {
        code: "BAD_FAULT_PLAN",
        file,
        line: lineAtByte(options.text, bad),
        fix: "Save the plan as UTF-8 JSON.",
      });
    }
    text = new TextDecoder().decode(options.text);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\r?\n/g, "\\n");
    const at = /position (\d+)/.exec(message);
    const line = !text.trim().includes("\n") ? undefined : at ? text.slice(0, Number(at[1])).split("\n").length : jsonErrorLine(text);
    throw new UserError(`fault plan is not valid JSON (${message})`, { code: "BAD_FAULT_PLAN", file, ...(line ? { line } : {}), fix: FIX });
  }
  return validateFaultPlan({ data, file, text });
}

/** `rules[0].match.nth`: the notation scenario errors use. */
export function jsonPathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "") || "$";
}

/** Validate a fault plan already parsed from JSON (`text`, when given, locates the line). */
export function validateFaultPlan(options: { data: unknown; file: string; text?: string }): FaultPlan {
  const { data, file, text } = options;
  const fail = (path: readonly PropertyKey[], problem: string, fix = FIX): never => {
    const line = text?.trim().includes("\n") && path.length > 0 ? jsonPathLine(text, path) : undefined;
    throw new UserError(problem, { code: "BAD_FAULT_PLAN", file, ...(line ? { line } : {}), field: jsonPathText(path), fix });
  };
  if (data === null || typeof data !== "object" || Array.isArray(data)) fail([], "a fault plan is a JSON object");
  const plan = data as Record<string, unknown>;
  for (const key of Object.keys(plan)) {
    if (key !== "seed" && key !== "rules") fail([key], `unknown key "${key}"`, "Valid keys: seed, rules.");
  }
  if (!Array.isArray(plan.rules)) fail(["rules"], "rules must be an array of { match, fault }");
  const validMatch = Object.keys(FaultMatchSchema.shape);
  const validKinds = FaultKindSchema.options;
  (plan.rules as unknown[]).forEach((rule, i) => {
    const at = ["rules", i];
    if (rule === null || typeof rule !== "object" || Array.isArray(rule)) fail(at, "a rule is { match, fault }");
    const r = rule as Record<string, unknown>;
    for (const key of Object.keys(r)) {
      if (key !== "match" && key !== "fault") fail([...at, key], `unknown key "${key}"`, "Valid keys: match, fault.");
    }
    // A rule without match would fire on every call: say so explicitly with "match": {}.
    if (!("match" in r)) fail(at, "the rule has no match", 'Add "match": { "tool": "…" } to pick the calls, or "match": {} to fault every call.');
    const match = r.match;
    if (match === null || typeof match !== "object" || Array.isArray(match)) fail([...at, "match"], "match must be an object");
    for (const key of Object.keys(match as object)) {
      if (!validMatch.includes(key)) fail([...at, "match", key], `unknown match key "${key}"`, `Valid match keys: ${validMatch.join(", ")}.`);
    }
    if (!("fault" in r)) fail(at, "the rule has no fault", `Add "fault": { "kind": … }; kinds: ${validKinds.join(", ")}.`);
    const fault = r.fault as Record<string, unknown> | undefined;
    if (fault === null || typeof fault !== "object" || Array.isArray(fault)) fail([...at, "fault"], "fault must be an object with a kind");
    if (!validKinds.includes(fault!.kind as never)) {
      fail([...at, "fault", "kind"], `unknown fault kind ${JSON.stringify(fault!.kind)}`, `Valid kinds: ${validKinds.join(", ")}.`);
    }
    const params = faultKeys(String(fault!.kind));
    for (const key of Object.keys(fault!)) {
      if (!params.includes(key))
        fail(
          [...at, "fault", key],
          `unknown key "${key}" in a ${String(fault!.kind)} fault`,
          `Valid keys for ${String(fault!.kind)}: ${params.join(", ")} (docs/faults.md).`,
        );
    }
    const one = FaultSchema.safeParse(fault);
    if (!one.success) {
      const issue = one.error.issues[0]!;
      fail([...at, "fault", ...issue.path], issue.message, `Parameters for "${String(fault!.kind)}" are listed in docs/faults.md.`);
    }
    if (one.data?.kind === "delay") checkDelay(one.data, [...at, "fault"], fail);
    if (one.data?.kind === "refusal" && one.data.delay) checkDelay({ kind: "delay", ...one.data.delay }, [...at, "fault", "delay"], fail);
  });
  const parsed = FaultPlanSchema.safeParse(plan);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(issue.path, issue.message);
  }
  return parsed.data!;
}

/** A delay's parameters must belong to its distribution (a jitter on a lognormal delay would be silently ignored). */
function checkDelay(
  fault: Extract<Fault, { kind: "delay" }>,
  at: readonly PropertyKey[],
  fail: (path: readonly PropertyKey[], problem: string, fix?: string) => never,
): void {
  const distribution = fault.distribution ?? (fault.jitter_ms !== undefined ? "uniform" : "fixed");
  if (fault.jitter_ms !== undefined && distribution !== "uniform") {
    fail(
      [...at, "jitter_ms"],
      `jitter_ms belongs to the uniform distribution, not ${distribution}`,
      'Drop jitter_ms, or use "distribution": "uniform" (for lognormal, set "sigma").',
    );
  }
  if (fault.sigma !== undefined && distribution !== "lognormal") {
    fail([...at, "sigma"], `sigma belongs to the lognormal distribution, not ${distribution}`, 'Add "distribution": "lognormal", or drop sigma.');
  }
  if (distribution === "uniform" && fault.jitter_ms === undefined) {
    fail([...at, "jitter_ms"], "a uniform delay needs jitter_ms (the half-width around ms)", 'Add e.g. "jitter_ms": 200.');
  }
}

/** The keys a fault of this kind may have, read from its schema. */
function faultKeys(kind: string): string[] {
  const option = FaultSchema.options.find((o) => o.shape.kind.value === kind);
  return option ? Object.keys(option.shape) : ["kind"];
}

function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
