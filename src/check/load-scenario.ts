import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { UserError } from "#src/errors.js";
import { HARNESS_ACTION_NAMES } from "#src/schema/harness-step.js";
import { ScenarioSchema, type Scenario } from "#src/schema/scenario.js";
import { CASSETTE_FILE } from "#src/cassette/cassette.js";
import { nearestAction } from "#src/harness/core/nearest-action.js";
import { parseJsonText } from "#src/util/read-json.js";
import { recogniseFile } from "#src/cassette/recognise-file.js";

export interface LoadedScenario {
  scenario: Scenario;
  /** The scenario file, as given (relative paths stay relative for messages). */
  file: string;
  /** Absolute cassette directory. */
  cassetteDir: string;
}

/** Reads and validates one scenario file; every problem is a UserError naming file, field and fix. */
export function loadScenario(file: string): LoadedScenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UserError("cannot read the scenario file", {
      code: "BAD_SCENARIO",
      file,
      fix: "Check the path; bundled scenarios are in contracts/scenarios/.",
      cause: error,
    });
  }
  const doc = parseJsonText({ text, file, code: "BAD_SCENARIO", what: "the scenario", fix: "Fix the JSON syntax." });
  notAScenario(file);
  checkActions(doc, file);
  const parsed = ScenarioSchema.safeParse(doc);
  if (!parsed.success) throw zodProblem(parsed.error, file);
  const scenario = parsed.data;
  checkExpectations(scenario, file);
  const cassetteDir = path.resolve(path.dirname(file), scenario.cassette);
  if (!existsSync(path.join(cassetteDir, CASSETTE_FILE))) {
    throw new UserError(`the cassette ${scenario.cassette} does not exist (no ${path.join(cassetteDir, CASSETTE_FILE)})`, {
      code: "BAD_SCENARIO",
      file,
      field: "cassette",
      fix: 'Give a cassette directory relative to the scenario file, e.g. "cassettes/gtk3demo-click".',
    });
  }
  return { scenario, file, cassetteDir };
}

/** The scenario files named on the command line, or every *.json in the bundled folder. */
export function findScenarioFiles(options: { args: readonly string[]; bundledDir: string }): string[] {
  const args = options.args.length > 0 ? options.args : [options.bundledDir];
  const files: string[] = [];
  for (const arg of args) {
    if (existsSync(arg) && statSync(arg).isDirectory()) {
      notAScenario(arg);
      for (const name of readdirSync(arg).sort()) if (name.endsWith(".json")) files.push(path.join(arg, name));
    } else files.push(arg);
  }
  return files;
}

/** A cassette, check result, replay log … given to `check` is named as what it is. */
function notAScenario(file: string): void {
  const kind = recogniseFile(file);
  if (!kind || kind.what === "a scenario contract") return;
  throw new UserError(`this is ${kind.what}, not a scenario contract: ${kind.takenBy}`, {
    code: "BAD_SCENARIO",
    file,
    fix: "`cua-contract check` takes scenario files (contracts/scenarios/*.json, docs/scenarios.md) or folders of them.",
  });
}

function checkActions(doc: unknown, file: string): void {
  const steps = (doc as { steps?: unknown })?.steps;
  if (!Array.isArray(steps)) return;
  steps.forEach((step, i) => {
    const name = (step as { action?: unknown })?.action;
    if (typeof name === "string" && !(HARNESS_ACTION_NAMES as readonly string[]).includes(name)) {
      const near = nearestAction(name, HARNESS_ACTION_NAMES).suggestion;
      throw new UserError(`unknown action "${name}"`, {
        code: "BAD_SCENARIO",
        file,
        field: `steps[${i}].action`,
        fix: `${near ? `Did you mean "${near}"? ` : ""}Actions: ${HARNESS_ACTION_NAMES.join(", ")}.`,
      });
    }
  });
}

function checkExpectations(scenario: Scenario, file: string): void {
  scenario.expect.steps.forEach((e, i) => {
    if (e.step > scenario.steps.length) {
      throw new UserError(`expectation refers to step ${e.step}, but the scenario has ${scenario.steps.length} steps`, {
        code: "BAD_SCENARIO",
        file,
        field: `expect.steps[${i}].step`,
        fix: `Use a 1-based step number from 1 to ${scenario.steps.length}.`,
      });
    }
  });
}

function zodProblem(error: z.ZodError, file: string): UserError {
  const issue = error.issues[0];
  const field = issue
    ? issue.path
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("")
        .replace(/^\./, "")
    : undefined;
  return new UserError(issue?.message ?? "does not match the scenario schema", {
    code: "BAD_SCENARIO",
    file,
    ...(field ? { field } : {}),
    fix: "See contracts/schema/scenario.schema.json and docs/scenarios.md.",
  });
}
