import path from "node:path";
import { readCassette, readCassetteSync } from "#src/cassette/reader.js";
import type { Cassette } from "#src/cassette/cassette.js";
import { runInvariants } from "#src/invariants/run.js";
import { knownToolsOptions } from "#src/replay/engine/known-tools.js";
import { knownToolsOfCassette } from "#src/replay/load.js";
import type { CheckResult, ScenarioResult } from "#src/schema/check-result.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { cassetteRows } from "./html/cassette-rows.js";
import type { ReportRecording } from "./html/recording.js";
import { checkLogCassette } from "./log-cassette-check.js";
import { checkSections, type ScenarioExtras } from "./html/check-sections.js";
import { resolveCassette, type ReportInput } from "./load-input.js";
import type { ReportModel } from "./html/model.js";
import { PACK_AFTER } from "./html/packed-pages.js";
import { replayLogNotes, replayLogProblems, replayLogRows } from "./html/replay-log-rows.js";

/** The report model of an input: its facts, notes, failures and timeline rows (no images yet). */
export async function reportModel(options: {
  input: ReportInput;
  cassetteDir?: string;
  scenarioExtras?: (scenario: ScenarioResult) => ScenarioExtras | undefined;
}): Promise<ReportModel> {
  const { input } = options;
  if (input.kind === "cassette") return cassetteModel(input.file, input.cassette, input.recording, pagedRecording(input) !== undefined);
  if (input.kind === "replay-log") {
    // its probe says which tools the driver offers, for no-unknown-tools (decision 0280)
    const cassette = options.cassetteDir ? await readCassette(options.cassetteDir) : undefined;
    if (cassette) checkLogCassette({ entries: input.entries, cassette, logFile: input.file });
    return replayLogModel(input.file, input.entries, cassette);
  }
  return checkModel(input.file, input.result, options.scenarioExtras);
}

/**
 * The recording of a cassette whose timeline is built a page at a time (more than PACK_AFTER
 * calls): its rows are never all held, and its pages after the first are packed (docs/decisions/0235).
 */
export function pagedRecording(input: ReportInput): ReportRecording | undefined {
  if (input.kind !== "cassette" || !input.recording) return undefined;
  return input.recording.count > PACK_AFTER ? input.recording : undefined;
}

function cassetteModel(file: string, cassette: Cassette, recording: ReportRecording | undefined, paged: boolean): ReportModel {
  const h = cassette.header;
  const rows = paged ? [] : cassetteRows({ ...(recording ? { recording } : { events: cassette.events }), cassetteDir: cassette.dir, idPrefix: "" });
  const calls = paged && recording ? recording.count : rows.length;
  const mutations = paged && recording ? recording.mutations : rows.filter((r) => r.kind === "mutation").length;
  return {
    title: `Cassette ${path.basename(path.resolve(file))}`,
    input: { kind: "cassette", file },
    facts: [
      ["driver", `${h.driver.version ?? "unknown version"} on ${h.driver.platform} (source: ${h.driver.source})`],
      ["transport", h.transport],
      ["recorded", `${h.recorded_at} by ${h.recorder.name} ${h.recorder.version}`],
      ["calls", `${calls} (${mutations} mutations, ${calls - mutations} others; epochs 0–${mutations})`],
    ],
    notes: [...(h.notes ?? []), ...cassette.warnings],
    sections: [{ id: "recording", title: "Recording", facts: [], problems: [], rows }],
  };
}

function replayLogModel(file: string, entries: ReplayLogEntry[], cassette: Cassette | undefined): ReportModel {
  // judged as the replay judged it: against the tools the recording's driver offers, when the cassette is given
  const invariants = runInvariants(entries, cassette ? { options: knownToolsOptions(knownToolsOfCassette(cassette)) } : {});
  const problems = replayLogProblems({ entries, invariants, idPrefix: "" });
  const rows = replayLogRows({ entries, ...(cassette ? { cassette: { events: cassette.events, dir: cassette.dir } } : {}), idPrefix: "" });
  const summary = entries.find((e) => e.type === "summary");
  const faults = rows.filter((r) => r.fault).length;
  return {
    title: `Replay log ${path.basename(file)}`,
    input: { kind: "replay-log", file },
    facts: [
      ["requests", `${rows.length} (${faults} faulted, ${rows.filter((r) => r.outcome === "unmatched").length} unmatched)`],
      ["invariants", `${invariants.results.filter((r) => r.passed).length} of ${invariants.results.length} hold`],
      ["cassette", cassette ? `${cassette.dir} (source: ${cassette.header.driver.source})` : "not given (pass --cassette DIR to see the screenshots)"],
      ...(summary && summary.type === "summary" ? ([["unused recorded calls", String(summary.unused.length)]] as Array<[string, string]>) : []),
    ],
    notes: replayLogNotes(entries),
    sections: [{ id: "replay", title: "Replay", passed: problems.length === 0, facts: [], problems, rows }],
  };
}

function checkModel(file: string, result: CheckResult, extras: ((scenario: ScenarioResult) => ScenarioExtras | undefined) | undefined): ReportModel {
  const cassettes = new Map<string, ScenarioExtras["cassette"]>();
  const sections = checkSections({
    result,
    extras: (scenario) => {
      const given = extras?.(scenario);
      if (given?.cassette) return given;
      const dir = resolveCassette(file, scenario.cassette);
      if (!dir) return given;
      if (!cassettes.has(dir)) {
        try {
          const c = readCassetteSync(dir, { probe: "skip" });
          cassettes.set(dir, { events: c.events, dir: c.dir });
        } catch {
          cassettes.set(dir, undefined);
        }
      }
      const cassette = cassettes.get(dir);
      return { ...given, ...(cassette ? { cassette } : {}) };
    },
  });
  return {
    title: `Check of ${result.harness}`,
    input: { kind: "check-result", file },
    facts: [
      ["scenarios", `${result.passed + result.failed} (${result.passed} passed, ${result.failed} failed)`],
      ["duration", `${(result.duration_ms / 1000).toFixed(2)} s`],
    ],
    notes: [],
    sections,
  };
}
