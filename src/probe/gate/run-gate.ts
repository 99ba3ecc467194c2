import path from "node:path";
import { stat } from "node:fs/promises";
import { UserError } from "../../errors.js";
import { readCassette } from "../../cassette/index.js";
import { ExpectedFailuresSchema } from "../../schema/gate-baseline.js";
import { ProbeSnapshotSchema, type ProbeSnapshot } from "../../schema/probe-snapshot.js";
import type { DriverContract } from "../../schema/driver-contract.js";
import { applyBaseline, type GateFailure } from "../analysis/baseline.js";
import type { Change } from "../analysis/change.js";
import { isFailing } from "../analysis/change.js";
import { checkContract, probeFailed, type CheckReport } from "../analysis/check.js";
import { diffSurfaces } from "../analysis/diff.js";
import { surfaceOfSnapshot } from "../analysis/surface.js";
import { acquireSnapshot } from "../acquire.js";
import { readContract } from "../read-contract.js";
import { parseWith, readJsonDocument } from "../../util/read-json.js";
import { readSnapshot } from "../read-snapshot.js";
import { checkRecordedCalls, type CallCheck, type RecordingBreak } from "./check-recordings.js";
import { findCassettes } from "./find-cassettes.js";
import { recordedCalls } from "./recorded-calls.js";
import { createToolValidator } from "./schema-validator.js";

export interface GateOptions {
  contract: string;
  driver?: string | undefined;
  sdk?: string | undefined;
  recordings?: readonly string[] | undefined;
  expectedFailures?: string | undefined;
  timeoutMs?: number | undefined;
}

export interface GateReport {
  ok: boolean;
  /** false when the candidate could not be probed at all (exit 3). */
  reachable: boolean;
  version: string | null;
  candidate: ProbeSnapshot["driver"];
  contract: { file: string; name: string };
  check?: CheckReport;
  gaps: CheckReport["gaps"];
  /** `outside`: breaking or behavioural changes to tools the contract does not list (reported, not failing). */
  diff?: { baseline: string; from: string | null; changes: Change[]; outside: number };
  /** Why there is no diff, when there is none. */
  diffNote?: string;
  /** `warnings`: what reading the cassettes dropped (a torn last line), so a user knows a call went unchecked. */
  recordings: { cassettes: string[]; calls: number; checks: CallCheck[]; breaks: RecordingBreak[]; warnings: string[] };
  failures: GateFailure[];
  expected: GateFailure[];
  unexpected: GateFailure[];
  stale: string[];
}

/** The bump gate: probe the candidate, check the contract, diff against the baseline, check every recorded call. */
export async function runGate(options: GateOptions): Promise<GateReport> {
  const contract = await readContract(options.contract);
  const expectedIds = options.expectedFailures ? await readExpected(options.expectedFailures) : undefined;
  const cassetteDirs = options.recordings?.length ? await findCassettes(options.recordings) : [];
  const cassettes = await Promise.all(cassetteDirs.map((dir) => readCassette(dir, { frames: "skip" })));
  const snapshot = await acquireSnapshot({ driver: options.driver, sdk: options.sdk, timeoutMs: options.timeoutMs, allowFrom: false });
  const report: GateReport = {
    ok: false,
    reachable: !probeFailed(snapshot),
    version: snapshot.driver.version,
    candidate: snapshot.driver,
    contract: { file: options.contract, name: contract.name },
    gaps: [],
    recordings: { cassettes: cassetteDirs.map(label), calls: 0, checks: [], breaks: [], warnings: cassettes.flatMap((c) => c.warnings) },
    failures: [],
    expected: [],
    unexpected: [],
    stale: [],
  };
  if (!report.reachable) return report;

  const check = checkContract({ snapshot, contract });
  report.check = check;
  report.gaps = check.gaps;
  const failures: GateFailure[] = check.items.filter((i) => i.status === "failed").map((i) => ({ id: i.id, source: "contract", message: i.message }));

  const baseline = await baselineSnapshot(options.contract, contract, cassettes);
  if ("snapshot" in baseline) {
    const diff = diffSurfaces(surfaceOfSnapshot(baseline.snapshot), surfaceOfSnapshot(snapshot));
    report.diff = { baseline: baseline.from, from: baseline.snapshot.driver.version, changes: diff.changes, outside: 0 };
    for (const change of diff.changes) {
      // A change fails the gate when it is breaking or behavioural and touches what the contract uses.
      if (!isFailing(change)) continue;
      if (change.tool !== undefined && !(change.tool in contract.tools)) {
        report.diff.outside++;
        continue;
      }
      failures.push({ id: `diff:${change.kind}:${change.tool ?? "-"}:${change.path ?? "-"}`, source: "diff", message: `${change.severity}: ${change.message}` });
    }
  } else report.diffNote = baseline.note;

  const tools = snapshot.tools_list?.tools;
  if (cassettes.length && tools) {
    const validator = createToolValidator(tools);
    const calls = cassettes.flatMap((c, i) => recordedCalls(c, label(cassetteDirs[i]!)));
    const checks = checkRecordedCalls(calls, validator);
    report.recordings.calls = calls.length;
    report.recordings.checks = checks;
    report.recordings.breaks = checks.flatMap((c) => c.breaks);
    for (const b of report.recordings.breaks) failures.push({ id: b.id, source: "recording", message: b.message });
  } else if (cassettes.length) {
    failures.push({ id: "recording:tools-list-missing", source: "recording", message: "recorded calls could not be checked: the candidate's tools/list was not probed" });
  }
  const split = applyBaseline(failures, expectedIds);
  Object.assign(report, { failures, ...split, ok: split.unexpected.length === 0 && split.stale.length === 0 });
  return report;
}

function label(dir: string): string {
  return path.relative(process.cwd(), path.resolve(dir)) || ".";
}

async function readExpected(file: string): Promise<string[]> {
  const fix = "See docs/gate.md: { \"format\": \"cua-expected-failures\", \"version\": 1, \"failures\": [{ \"id\": \"…\" }] }, or write one with --save-expected-failures.";
  const { value, text } = await readJsonDocument({ file, code: "BAD_INPUT", what: "expected-failures file", fix });
  return parseWith({ schema: ExpectedFailuresSchema, value, text, file, code: "BAD_INPUT", what: "expected-failures file", fix }).failures.map((f) => f.id);
}

async function baselineSnapshot(
  contractFile: string,
  contract: DriverContract,
  cassettes: Awaited<ReturnType<typeof readCassette>>[],
): Promise<{ snapshot: ProbeSnapshot; from: string } | { note: string }> {
  if (contract.baseline) {
    const file = path.resolve(path.dirname(contractFile), contract.baseline);
    if (!(await stat(file).catch(() => undefined))) {
      throw new UserError(`the baseline snapshot ${JSON.stringify(contract.baseline)} (${file}) does not exist`, {
        code: "BAD_CONTRACT",
        file: contractFile,
        field: "baseline",
        fix: "Point baseline at a probe snapshot (relative to the contract file), e.g. one written by `cua-contract probe --sdk VERSION --save FILE`, or remove the field.",
      });
    }
    return { snapshot: await readSnapshot(file), from: label(file) };
  }
  for (const cassette of cassettes) {
    const parsed = ProbeSnapshotSchema.safeParse(cassette.probe);
    if (parsed.success) return { snapshot: parsed.data, from: label(path.join(cassette.dir, "probe.json")) };
  }
  return { note: "no baseline to diff against: the contract names none and no recording has a probe.json" };
}
