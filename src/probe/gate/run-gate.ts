import os from "node:os";
import path from "node:path";
import { stat } from "node:fs/promises";
import { UserError } from "#src/errors.js";
import { CASSETTE_FILE } from "#src/cassette/index.js";
import { ExpectedFailuresSchema } from "#src/schema/gate-baseline.js";
import { isSourceSnapshot, ProbeSnapshotSchema, type ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import type { DriverContract } from "#src/schema/driver-contract.js";
import { DEFAULT_SDK_VERSION } from "#src/runtime/load.js";
import { applyBaseline, type GateFailure } from "#src/contract/baseline.js";
import type { Change } from "#src/contract/change.js";
import { checkContract, probeFailed, type CheckItem, type CheckReport } from "#src/contract/check.js";
import { diffSurfaces } from "#src/contract/diff.js";
import { surfaceOfSnapshot } from "#src/contract/surface.js";
import { acquireSnapshot } from "#src/probe/acquire.js";
import { readContract } from "#src/probe/read-contract.js";
import { parseWith, readJsonDocument } from "#src/util/read-json.js";
import { readSnapshot } from "#src/probe/read-snapshot.js";
import { sdkSnapshot, type SnapshotOrigin } from "#src/probe/snapshot-cache.js";
import { sdkMcpLines } from "#src/transports/sdk/probe-lines.js";
import { namesErasOrSkills } from "#src/contract/check-eras.js";
import { checkRecordedCalls, type CallCheck, type RecordingBreak, type StaleRecording } from "./check-recordings.js";
import { contractItemOf, inContractScope } from "./scope.js";
import { findCassettes } from "./find-cassettes.js";
import { scanRecordedCalls, type RecordedCall } from "./recorded-calls.js";
import { createToolValidator, createValidatorMemo, type ValidatorMemo } from "./schema-validator.js";
import { stampOf } from "./verdict-cache.js";

/**
 * What `runGate` checks: the contract, the candidate driver (a binary or a runtime version) and the
 * recordings to replay against it.
 */
export interface GateOptions {
  contract: string;
  driver?: string | undefined;
  sdk?: string | undefined;
  recordings?: readonly string[] | undefined;
  expectedFailures?: string | undefined;
  timeoutMs?: number | undefined;
  /** A directory of kept snapshots of published versions (`sdk-<version>.probe.json`), asked before the cache. */
  snapshots?: string | undefined;
  /** Root of the snapshot cache (default ~/.cache/cua-contract/probe). */
  cacheRoot?: string | undefined;
  /** Probe a published version again even when its snapshot is cached. */
  refresh?: boolean | undefined;
  /** A snapshot read from the driver's source (`contracts/snapshots/source-bf3affc1.probe.json`) as the candidate. */
  sourceSnapshot?: string | undefined;
}

/** Everything a gate reads once, whatever the candidate: contract, baseline, recordings. */
export interface PreparedGate {
  contractFile: string;
  contract: DriverContract;
  expectedIds: string[] | undefined;
  cassettes: string[];
  calls: RecordedCall[];
  warnings: string[];
  baseline: { snapshot: ProbeSnapshot; from: string } | { note: string };
  /** Every file the judgment depends on, by path, size and modification time (the matrix's verdict cache key). */
  stamps: string[];
  /** Schema checks shared by every candidate judged against this preparation. */
  memo: ValidatorMemo;
}

/**
 * The gate's verdict on a candidate driver: the contract check, the diff, the recorded calls, and
 * whether it passes.
 */
export interface GateReport {
  ok: boolean;
  /** false when the candidate could not be probed at all (exit 3). */
  reachable: boolean;
  version: string | null;
  candidate: ProbeSnapshot["driver"];
  /** How the candidate's snapshot was had: probed now, or read from the cache or a kept snapshot. */
  snapshot: { origin: SnapshotOrigin; file?: string };
  contract: { file: string; name: string };
  check?: CheckReport;
  gaps: CheckReport["gaps"];
  /** Contract items the probe could not see (an sdk probe has no CLI): named, not failed. */
  skipped: CheckItem[];
  /**
   * `outside`: breaking or behavioural changes that reach nothing the contract names (a tool it
   * does not list, an adapter none of its tools uses): listed, not failed.
   */
  diff?: { baseline: string; from: string | null; changes: Change[]; outside: Change[] };
  /** Why there is no diff, when there is none. */
  diffNote?: string;
  /** Why the recorded calls were not checked, when the candidate is a roster read from source (names only). */
  recordingsNote?: string;
  /**
   * `stale`: recorded outputs that lack what the candidate now promises (not failures);
   * `rerecord`: the command that re-records each cassette with a stale output.
   * `warnings`: what reading the cassettes dropped (a torn last line), so a user knows a call went unchecked.
   */
  recordings: {
    cassettes: string[];
    calls: number;
    checks: CallCheck[];
    breaks: RecordingBreak[];
    stale: StaleRecording[];
    rerecord: Array<{ cassette: string; command: string }>;
    warnings: string[];
  };
  failures: GateFailure[];
  expected: GateFailure[];
  unexpected: GateFailure[];
  stale: string[];
}

/** The bump gate: probe the candidate, check the contract, diff against the baseline, check every recorded call. */
export async function runGate(options: GateOptions): Promise<GateReport> {
  const prepared = await prepareGate(options);
  const candidate = await acquireCandidate(options, { eras: namesErasOrSkills(prepared.contract) });
  return judgeCandidate(prepared, candidate);
}

/** Reads the contract, the expected-failures file, the recordings and the baseline (bad input throws before any probe). */
export async function prepareGate(options: Pick<GateOptions, "contract" | "recordings" | "expectedFailures">): Promise<PreparedGate> {
  const contract = await readContract(options.contract);
  const expectedIds = options.expectedFailures ? await readExpected(options.expectedFailures) : undefined;
  const cassetteDirs = options.recordings?.length ? await findCassettes(options.recordings) : [];
  const labels = cassetteDirs.map(label);
  // each cassette read line by line; only its calls are kept (equal outputs once, within a budget)
  const read = cassetteDirs.map((dir, i) => scanRecordedCalls(dir, labels[i]!));
  const cassettes = read.map(({ scan }) => ({ dir: scan.dir, warnings: scan.warnings, ...(scan.probe ? { probe: scan.probe.json } : {}) }));
  const baseline = await baselineSnapshot(options.contract, contract, cassettes);
  const files = [
    options.contract,
    options.expectedFailures,
    "file" in baseline ? baseline.file : undefined,
    ...cassetteDirs.map((d) => path.join(d, CASSETTE_FILE)),
  ];
  return {
    contractFile: options.contract,
    contract,
    expectedIds,
    cassettes: labels,
    calls: read.flatMap((r) => r.calls),
    warnings: cassettes.flatMap((c) => c.warnings),
    baseline,
    stamps: [process.cwd(), ...(await Promise.all(files.map((f) => (f ? stampOf(f) : "-"))))],
    memo: createValidatorMemo(),
  };
}

export interface Candidate {
  snapshot: ProbeSnapshot;
  origin: SnapshotOrigin;
  file?: string;
  /** How `record --driver` names this candidate (the re-record command uses it). */
  driverFlag: string;
}

/**
 * The candidate's snapshot: a published version from the kept snapshots or the cache when it has
 * been probed before, else probed now; or a snapshot read from source. `eras`: the contract names
 * MCP eras or skills, so the snapshot must have been taken with the era steps (or need none:
 * src/probe/snapshot-cache.ts).
 */
export async function acquireCandidate(options: Omit<GateOptions, "contract">, need: { eras?: boolean } = {}): Promise<Candidate> {
  if (options.sourceSnapshot !== undefined) return sourceCandidate(options);
  const sdk = options.driver !== undefined ? /^sdk(?::(.+))?$/.exec(options.driver) : null;
  const version = options.sdk ?? (sdk ? (sdk[1] ?? DEFAULT_SDK_VERSION) : undefined);
  const oneSource = !(options.driver !== undefined && options.sdk !== undefined);
  const validTimeout = options.timeoutMs === undefined || options.timeoutMs > 0;
  // Anything else (two sources, a bad timeout, a version that is not exact) goes to the probe, which names the problem.
  if (version !== undefined && oneSource && validTimeout && /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) {
    const got = await sdkSnapshot(version, {
      kept: options.snapshots,
      cacheRoot: options.cacheRoot,
      refresh: options.refresh,
      timeoutMs: options.timeoutMs,
      eras: need.eras,
    });
    return { ...got, driverFlag: `sdk:${version}` };
  }
  const snapshot = await acquireSnapshot({
    driver: options.driver,
    sdk: options.sdk,
    timeoutMs: options.timeoutMs,
    allowFrom: false,
    ...(need.eras ? { mcpLines: sdkMcpLines } : {}),
  });
  return { snapshot, origin: "probe", driverFlag: options.driver ?? `sdk:${options.sdk ?? DEFAULT_SDK_VERSION}` };
}

/** A snapshot read from the driver's source, as the candidate: read as it is, never probed. */
async function sourceCandidate(options: Omit<GateOptions, "contract">): Promise<Candidate> {
  const file = options.sourceSnapshot!;
  const clash = (["driver", "sdk"] as const).find((k) => options[k] !== undefined);
  if (clash)
    throw new UserError(`--source-snapshot and --${clash} were both given`, {
      code: "USAGE",
      field: `--${clash}`,
      fix: "Gate one candidate: a snapshot read from source, a binary (--driver PATH) or a published runtime (--sdk VERSION).",
    });
  const snapshot = await readSnapshot(file);
  if (!isSourceSnapshot(snapshot)) {
    throw new UserError(`${file} was not read from source (its driver.source is "${snapshot.driver.source}")`, {
      code: "BAD_SNAPSHOT",
      file,
      field: "driver.source",
      fix: 'Pass a snapshot with driver.source "source" (node scripts/source-snapshot.mjs writes one); gate a probed driver with --driver PATH or --sdk VERSION.',
    });
  }
  return { snapshot, origin: "source", file, driverFlag: snapshot.driver.location };
}

/** Judges one candidate against what was prepared. Pure apart from reading the working directory for labels. */
export function judgeCandidate(prepared: PreparedGate, candidate: Candidate): GateReport {
  const { contract } = prepared;
  const { snapshot } = candidate;
  const report: GateReport = {
    ok: false,
    reachable: !probeFailed(snapshot),
    version: snapshot.driver.version,
    candidate: snapshot.driver,
    snapshot: { origin: candidate.origin, ...(candidate.file ? { file: shortPath(candidate.file) } : {}) },
    contract: { file: prepared.contractFile, name: contract.name },
    gaps: [],
    skipped: [],
    recordings: { cassettes: prepared.cassettes, calls: 0, checks: [], breaks: [], stale: [], rerecord: [], warnings: prepared.warnings },
    failures: [],
    expected: [],
    unexpected: [],
    stale: [],
  };
  if (!report.reachable) return report;

  const check = checkContract({ snapshot, contract });
  report.check = check;
  report.gaps = check.gaps;
  report.skipped = check.items.filter((i) => i.status === "unverified" && i.kind !== "version");
  const failures: GateFailure[] = check.items.filter((i) => i.status === "failed").map((i) => ({ id: i.id, source: "contract", message: i.message }));
  const byId = new Map(failures.map((f) => [f.id, f]));

  const { baseline } = prepared;
  if ("snapshot" in baseline) {
    const diff = diffSurfaces(surfaceOfSnapshot(baseline.snapshot), surfaceOfSnapshot(snapshot));
    report.diff = { baseline: baseline.from, from: baseline.snapshot.driver.version, changes: diff.changes, outside: [] };
    for (const change of diff.changes) {
      if (change.severity !== "breaking" && change.severity !== "behavioural") continue;
      if (!inContractScope(change, contract)) {
        report.diff.outside.push(change);
        continue;
      }
      const id = `diff:${change.kind}:${change.tool ?? "-"}:${change.path ?? "-"}`;
      // The same fact seen twice (a failed contract item and the diff change behind it) is one failure.
      const item = contractItemOf(change, byId);
      if (item) {
        (item.aliases ??= []).push(id);
        continue;
      }
      failures.push({ id, source: "diff", message: `${change.severity}: ${change.message}` });
    }
  } else report.diffNote = baseline.note;

  const tools = snapshot.tools_list?.tools;
  if (prepared.cassettes.length && !tools && isSourceSnapshot(snapshot)) {
    // names only: every schema a recorded call would be checked against is unknown, not absent
    report.recordingsNote = `${prepared.calls.length} recorded call(s) not checked: the candidate was read from source, which names the tools only (their schemas are unknown)`;
  } else if (prepared.cassettes.length && tools) {
    const checks = checkRecordedCalls(prepared.calls, createToolValidator(tools, prepared.memo));
    report.recordings.calls = prepared.calls.length;
    report.recordings.checks = checks;
    report.recordings.breaks = checks.flatMap((c) => c.breaks);
    report.recordings.stale = checks.flatMap((c) => c.stale);
    const staleCassettes = [...new Set(report.recordings.stale.map((s) => s.cassette))];
    report.recordings.rerecord = staleCassettes.map((cassette) => ({
      cassette,
      command: rerecordCommand(
        cassette,
        candidate.driverFlag,
        prepared.calls.some((c) => c.cassette === cassette && PLACEHOLDER.test(JSON.stringify(c.args ?? null))),
      ),
    }));
    for (const b of report.recordings.breaks) failures.push({ id: b.id, source: "recording", message: b.message });
  } else if (prepared.cassettes.length) {
    failures.push({
      id: "recording:tools-list-missing",
      source: "recording",
      message: "recorded calls could not be checked: the candidate's tools/list was not probed",
    });
  }
  const split = applyBaseline(failures, prepared.expectedIds);
  Object.assign(report, { failures, ...split, ok: split.unexpected.length === 0 && split.stale.length === 0 });
  return report;
}

const PLACEHOLDER = /«redacted:[a-z]+:[0-9a-f]{8}»/;

/**
 * How to replace a stale cassette: for the published runtime, `verify --update` sends the recorded
 * requests again and keeps the candidate's answers (no harness needed); otherwise record the harness again.
 */
function rerecordCommand(cassette: string, driverFlag: string, redacted: boolean): string {
  const record = `cua-contract record --driver ${driverFlag} --force --out ${cassette} -- <the harness command that made it>`;
  if (!driverFlag.startsWith("sdk")) return record;
  const version = driverFlag.split(":")[1] ?? "new";
  const secret = redacted ? " --secret <each text it typed>" : "";
  return `cua-contract verify ${cassette} --driver ${driverFlag} --desktop${secret} --update ${cassette}-${version} (or: ${record})`;
}

/** A path for messages: relative inside the working directory, `~/…` under the home directory. */
function shortPath(file: string): string {
  const relative = path.relative(process.cwd(), path.resolve(file));
  if (!relative.startsWith("..")) return relative;
  const home = os.homedir();
  return path.resolve(file).startsWith(`${home}/`) ? `~/${path.relative(home, path.resolve(file))}` : path.resolve(file);
}

function label(dir: string): string {
  return path.relative(process.cwd(), path.resolve(dir)) || ".";
}

async function readExpected(file: string): Promise<string[]> {
  const fix = 'See docs/gate.md: { "format": "cua-expected-failures", "version": 1, "failures": [{ "id": "…" }] }, or write one with --save-expected-failures.';
  const { value, text } = await readJsonDocument({ file, code: "BAD_INPUT", what: "expected-failures file", fix });
  return parseWith({ schema: ExpectedFailuresSchema, value, text, file, code: "BAD_INPUT", what: "expected-failures file", fix }).failures.map((f) => f.id);
}

async function baselineSnapshot(
  contractFile: string,
  contract: DriverContract,
  cassettes: readonly { dir: string; probe?: unknown }[],
): Promise<{ snapshot: ProbeSnapshot; from: string; file: string } | { note: string }> {
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
    return { snapshot: await readSnapshot(file), from: label(file), file };
  }
  for (const cassette of cassettes) {
    const parsed = ProbeSnapshotSchema.safeParse(cassette.probe);
    if (parsed.success) return { snapshot: parsed.data, from: label(path.join(cassette.dir, "probe.json")), file: path.join(cassette.dir, "probe.json") };
  }
  return { note: "no baseline to diff against: the contract names none and no recording has a probe.json" };
}
