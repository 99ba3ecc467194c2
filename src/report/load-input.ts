import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Cassette } from "#src/cassette/cassette.js";
import { UserError } from "#src/errors.js";
import { jsonErrorLine } from "#src/util/json-error-line.js";
import { CheckResultSchema, type CheckResult } from "#src/schema/check-result.js";
import { ReplayLogEntrySchema, type ReplayLogEntry } from "#src/schema/replay-log.js";
import { recordingOfEvents, type ReportRecording } from "./html/recording.js";
import { scanRecording } from "./scan-recording.js";
import { readCassette } from "#src/cassette/reader.js";
import { CASSETTE_FILE } from "#src/cassette/cassette.js";

export type ReportInput =
  /** `recording`: the cassette read for the report (built from `cassette.events` when absent). */
  | { kind: "cassette"; file: string; cassette: Cassette; recording?: ReportRecording }
  | { kind: "replay-log"; file: string; entries: ReplayLogEntry[] }
  | { kind: "check-result"; file: string; result: CheckResult };

/** Cassettes up to this size (cassette.jsonl) are read into memory for a report; larger ones line by line. */
export const REPORT_IN_MEMORY_BYTES = 32 * 2 ** 20;

function cassetteBytes(dir: string): number {
  try {
    return statSync(path.join(dir, CASSETTE_FILE)).size;
  } catch {
    return 0; // the reader says what is wrong with it
  }
}

const WHAT = "Pass a cassette directory, a replay log (.jsonl, one entry per line) or a check result (.json from `check --json`).";

/** Reads what `report` was given, telling the three kinds apart by their shape. */
export async function loadReportInput(file: string): Promise<ReportInput> {
  if (!existsSync(file)) throw new UserError("no such file or directory", { code: "BAD_INPUT", file, fix: WHAT });
  // Frames are hash-checked when the report loads them (loadFrame), and a report shows nothing from
  // probe.json. A large cassette is read line by line, keeping no event (scanRecording); a small one
  // is kept in memory, which spares reading each answer a second time.
  if (statSync(file).isDirectory()) {
    if (cassetteBytes(file) > REPORT_IN_MEMORY_BYTES) return { kind: "cassette", file, ...scanRecording(file) };
    const cassette = await readCassette(file, { frames: "skip", probe: "skip" });
    return { kind: "cassette", file, cassette, recording: recordingOfEvents(cassette.events) };
  }
  const text = readFileSync(file, "utf8");
  const first = text.trimStart().split("\n", 1)[0] ?? "";
  let firstJson: unknown;
  try {
    firstJson = JSON.parse(first);
  } catch {
    firstJson = undefined;
  }
  if (firstJson && typeof firstJson === "object" && "type" in firstJson) return { kind: "replay-log", file, entries: parseReplayLog(file, text) };
  if (firstJson && typeof firstJson === "object" && (firstJson as { format?: unknown }).format === "cua-cassette") {
    throw new UserError("this is a cassette's event file", {
      code: "BAD_INPUT",
      file,
      fix: `Pass the cassette directory instead: cua-contract report ${path.dirname(file)} --out FILE.html.`,
    });
  }
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec(error instanceof Error ? error.message : "");
    const line = at ? text.slice(0, Number(at[1])).split("\n").length : (jsonErrorLine(text) ?? 1);
    throw new UserError("neither a replay log nor a check result (not JSON)", { code: "BAD_INPUT", file, line, fix: WHAT });
  }
  if (!whole || typeof whole !== "object" || Array.isArray(whole) || !("scenarios" in whole)) {
    const shape =
      whole && typeof whole === "object" && !Array.isArray(whole)
        ? `a JSON object with keys ${
            Object.keys(whole)
              .slice(0, 5)
              .map((k) => JSON.stringify(k))
              .join(", ") || "(none)"
          }`
        : `JSON ${Array.isArray(whole) ? "array" : typeof whole}`;
    throw new UserError(
      `neither a cassette, a replay log nor a check result (${shape}; a check result has "scenarios", a replay log one {"type": …} entry per line)`,
      { code: "BAD_INPUT", file, fix: WHAT },
    );
  }
  const parsed = CheckResultSchema.safeParse(whole);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`not a check result: ${issue.message}`, {
      code: "BAD_INPUT",
      file,
      ...(issue.path.length > 0 ? { field: issue.path.join(".") } : {}),
      fix: WHAT,
    });
  }
  return { kind: "check-result", file, result: parsed.data };
}

export function parseReplayLog(file: string, text: string): ReplayLogEntry[] {
  const entries: ReplayLogEntry[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new UserError("replay log line is not JSON", {
        code: "BAD_INPUT",
        file,
        line: i + 1,
        fix: "A replay log has one JSON entry per line; pass the log a replay wrote, unedited.",
      });
    }
    const parsed = ReplayLogEntrySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UserError(`not a replay log entry: ${issue.message}`, {
        code: "BAD_INPUT",
        file,
        line: i + 1,
        ...(issue.path.length > 0 ? { field: issue.path.join(".") } : {}),
        fix: "Regenerate the log with the same cua-contract version, or pass the right file.",
      });
    }
    entries.push(parsed.data);
  });
  return entries;
}

/** A check result names each scenario's cassette relative to where check ran; try that, then beside the result file. */
export function resolveCassette(resultFile: string, cassette: string): string | undefined {
  for (const candidate of [path.resolve(cassette), path.resolve(path.dirname(resultFile), cassette)]) {
    if (existsSync(path.join(candidate, "cassette.jsonl"))) return candidate;
  }
  return undefined;
}
