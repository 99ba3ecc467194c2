import { writeFileSync } from "node:fs";
import { diffImage } from "../harness/screen/diff-image.js";
import { screenChange } from "../harness/screen/screen-change.js";
import { buildReport } from "../report/html/write-report.js";
import type { CheckResult } from "../schema/check-result.js";
import type { ReplayLogEntry } from "../schema/replay-log.js";
import { loadReplayCassette } from "./replay-cassette.js";

/** Writes the HTML report of a check run, with each scenario's replay log and cassette beside its result. */
export async function writeCheckReport(options: { file: string; result: CheckResult; logs: ReadonlyMap<string, ReplayLogEntry[]> }): Promise<void> {
  const { html } = await buildReport({
    input: { kind: "check-result", file: options.file, result: options.result },
    scenarioExtras: (s) => {
      const log = options.logs.get(s.file);
      const cassette = loadReplayCassette(s.cassette).cassette;
      return { ...(log ? { log } : {}), cassette: { events: cassette.events, dir: cassette.dir } };
    },
    screen: { screenChange, diffImage },
  });
  writeFileSync(options.file, html);
}
