import { UserError } from "../errors.js";
import { FaultMatchSchema, FaultPlanSchema, FaultSchema, type Fault, type FaultPlan } from "../schema/fault-plan.js";
import { FaultKindSchema } from "../schema/replay-log.js";

const FIX = "See docs/faults.md for the plan format.";

/** Parse and validate a fault plan's JSON text; every problem names the file and the field. */
export function parseFaultPlan(options: { text: string; file: string }): FaultPlan {
  const { text, file } = options;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UserError(`fault plan is not valid JSON (${(error as Error).message})`, {
      code: "BAD_FAULT_PLAN",
      file,
      fix: FIX,
    });
  }
  return validateFaultPlan({ data, file });
}

/** Validate a fault plan already parsed from JSON. */
export function validateFaultPlan(options: { data: unknown; file: string }): FaultPlan {
  const { data, file } = options;
  const fail = (field: string, problem: string, fix = FIX): never => {
    throw new UserError(problem, { code: "BAD_FAULT_PLAN", file, field, fix });
  };
  if (data === null || typeof data !== "object" || Array.isArray(data)) fail("$", "a fault plan is a JSON object");
  const plan = data as Record<string, unknown>;
  for (const key of Object.keys(plan)) {
    if (key !== "seed" && key !== "rules") fail(key, `unknown key "${key}"`, "Valid keys: seed, rules.");
  }
  if (!Array.isArray(plan.rules)) fail("rules", "rules must be an array of { match, fault }");
  const validMatch = Object.keys(FaultMatchSchema.shape);
  const validKinds = FaultKindSchema.options;
  (plan.rules as unknown[]).forEach((rule, i) => {
    const at = `rules[${i}]`;
    if (rule === null || typeof rule !== "object" || Array.isArray(rule)) fail(at, "a rule is { match, fault }");
    const r = rule as Record<string, unknown>;
    for (const key of Object.keys(r)) {
      if (key !== "match" && key !== "fault") fail(`${at}.${key}`, `unknown key "${key}"`, "Valid keys: match, fault.");
    }
    const match = r.match ?? {};
    if (match === null || typeof match !== "object" || Array.isArray(match)) fail(`${at}.match`, "match must be an object");
    for (const key of Object.keys(match as object)) {
      if (!validMatch.includes(key)) fail(`${at}.match.${key}`, `unknown match key "${key}"`, `Valid match keys: ${validMatch.join(", ")}.`);
    }
    const fault = r.fault as Record<string, unknown> | undefined;
    if (fault === null || typeof fault !== "object" || Array.isArray(fault)) fail(`${at}.fault`, "fault must be an object with a kind");
    if (!validKinds.includes(fault!.kind as never)) {
      fail(`${at}.fault.kind`, `unknown fault kind ${JSON.stringify(fault!.kind)}`, `Valid kinds: ${validKinds.join(", ")}.`);
    }
    const one = FaultSchema.safeParse(fault);
    if (!one.success) {
      const issue = one.error.issues[0]!;
      const field = [`${at}.fault`, ...issue.path.map(String)].join(".");
      fail(field, issue.message, `Parameters for "${String(fault!.kind)}" are listed in docs/faults.md.`);
    }
    if (one.data?.kind === "delay") checkDelay(one.data, `${at}.fault`, fail);
  });
  const parsed = FaultPlanSchema.safeParse({ ...plan, rules: (plan.rules as unknown[]).map((r) => ({ match: {}, ...(r as object) })) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(issue.path.map(String).join(".") || "$", issue.message);
  }
  return parsed.data!;
}

/** A delay's parameters must belong to its distribution (a jitter on a lognormal delay would be silently ignored). */
function checkDelay(fault: Extract<Fault, { kind: "delay" }>, at: string, fail: (field: string, problem: string, fix?: string) => never): void {
  const distribution = fault.distribution ?? (fault.jitter_ms !== undefined ? "uniform" : "fixed");
  if (fault.jitter_ms !== undefined && distribution !== "uniform") {
    fail(`${at}.jitter_ms`, `jitter_ms belongs to the uniform distribution, not ${distribution}`, 'Drop jitter_ms, or use "distribution": "uniform" (for lognormal, set "sigma").');
  }
  if (fault.sigma !== undefined && distribution !== "lognormal") {
    fail(`${at}.sigma`, `sigma belongs to the lognormal distribution, not ${distribution}`, 'Add "distribution": "lognormal", or drop sigma.');
  }
  if (distribution === "uniform" && fault.jitter_ms === undefined) {
    fail(`${at}.jitter_ms`, "a uniform delay needs jitter_ms (the half-width around ms)", 'Add e.g. "jitter_ms": 200.');
  }
}
