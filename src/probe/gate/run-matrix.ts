import { UserError } from "#src/errors.js";
import { GATE_VERDICT_FORMAT, type GateVerdict } from "#src/schema/gate-verdict.js";
import { rangeProblem, satisfies } from "#src/util/versions.js";
import { defaultProbeCacheRoot, findSnapshotFile, type SnapshotOrigin } from "#src/probe/snapshot-cache.js";
import { namesErasOrSkills } from "#src/contract/check-eras.js";
import { gateSuites } from "./render-gate.js";
import { sourceLabel } from "#src/schema/probe-snapshot.js";
import { acquireCandidate, judgeCandidate, prepareGate, type GateOptions, type GateReport } from "./run-gate.js";
import { publishedVersions } from "./published-versions.js";
import { judgingCodeStamp, readVerdict, stampOf, verdictKey, writeVerdict } from "./verdict-cache.js";

/** The gate's options over a range of published runtime versions instead of one driver. */
export interface MatrixOptions extends Omit<GateOptions, "driver" | "sdk"> {
  /** `all`, a range (`>=0.21.0`, `0.28.x`), or exact versions separated by commas. */
  matrix: string;
  /** The published versions (default: the registry's list, cached for an hour). */
  published?: readonly string[] | undefined;
  /** Reuse the verdict of a version whose inputs are all unchanged (default true). */
  verdictCache?: boolean | undefined;
  /** Snapshots read from the driver's source: one row each after the published versions, never the newest passing one. */
  sourceSnapshots?: readonly string[] | undefined;
}

export type MatrixVerdict = GateVerdict["verdict"];

export interface MatrixRow {
  version: string;
  verdict: MatrixVerdict;
  /** Ids of the failures that are not in the expected-failures baseline. */
  failing: string[];
  failures: GateVerdict["failures"];
  /** Recorded outputs that lack what this version newly promises. */
  staleRecordings: GateVerdict["stale_recordings"];
  /** Changes listed but not failed: they reach nothing the contract names. */
  outside: string[];
  /** Contract items the probe could not see. */
  skipped: string[];
  /** Where the version's snapshot came from (`probe`: installed if need be, and probed in this run). */
  origin: SnapshotOrigin;
  /** The verdict was judged in an earlier run on the same inputs. */
  reused: boolean;
  junit: GateVerdict["junit"];
}

/** The gate's verdict for each version of a matrix, and the range that passes. */
export interface MatrixReport {
  contract: { file: string; name: string };
  range: string;
  recordings: { cassettes: string[]; calls: number };
  /** Where the list of versions came from. */
  versionsFrom: "registry" | "cache" | "given";
  rows: MatrixRow[];
  /** The newest version that passes: the one this harness can bump to. */
  newestPassing: string | null;
  ok: boolean;
}

/** The gate against every published version in a range: one verdict per version. */
export async function runMatrix(options: MatrixOptions): Promise<MatrixReport> {
  const prepared = await prepareGate(options);
  // read before any version is probed, so a bad file is named at once
  const sources = await Promise.all((options.sourceSnapshots ?? []).map((file) => acquireCandidate({ sourceSnapshot: file })));
  const { versions, from } = await selectVersions(options);
  const cacheRoot = options.cacheRoot ?? defaultProbeCacheRoot();
  const useCache = options.verdictCache !== false;
  const base = useCache ? [judgingCodeStamp(), ...prepared.stamps] : [];
  const rows: MatrixRow[] = [];
  // a contract naming eras or skills is judged on snapshots taken with the era steps
  const eras = namesErasOrSkills(prepared.contract);
  // One at a time: a first run installs each version, and the runtime is a native library per process.
  for (const version of versions) {
    const found = useCache ? await findSnapshotFile(version, { kept: options.snapshots, cacheRoot, refresh: options.refresh, eras }) : undefined;
    const key = found ? verdictKey([...base, version, await stampOf(found.file)]) : undefined;
    const cached = key ? await readVerdict(cacheRoot, key) : undefined;
    if (cached && cached.driver_version === version) {
      rows.push(rowOf(version, cached, found!.origin, true));
      continue;
    }
    const candidate = await acquireCandidate({ ...options, sdk: version }, { eras });
    const verdict = verdictOf(judgeCandidate(prepared, candidate), version);
    // A snapshot probed now was just written to the cache: its stamp keys the verdict for the next run.
    const written = candidate.file ? verdictKey([...base, version, await stampOf(candidate.file)]) : undefined;
    if (useCache && written && verdict.verdict !== "unreachable") await writeVerdict(cacheRoot, written, verdict);
    rows.push(rowOf(version, verdict, candidate.origin, false));
  }
  // a roster read from source is no published version: judged each run (reading it is cheap), never one to bump to
  for (const candidate of sources) {
    const label = sourceLabel(candidate.snapshot.driver);
    rows.push(rowOf(label, verdictOf(judgeCandidate(prepared, candidate), label), "source", false));
  }
  const passing = rows.filter((r) => r.verdict === "pass" && r.origin !== "source");
  return {
    contract: { file: options.contract, name: prepared.contract.name },
    range: options.matrix,
    recordings: { cassettes: prepared.cassettes, calls: prepared.calls.length },
    versionsFrom: from,
    rows,
    newestPassing: passing.at(-1)?.version ?? null,
    ok: rows.every((r) => r.verdict === "pass"),
  };
}

function verdictOf(report: GateReport, version: string): GateVerdict {
  return {
    format: GATE_VERDICT_FORMAT,
    version: 1,
    driver_version: version,
    // One expected-failures file serves every version: an entry a version does not fail on is not stale there.
    verdict: !report.reachable ? "unreachable" : report.unexpected.length === 0 ? "pass" : "fail",
    failing: report.unexpected.map((f) => f.id),
    failures: report.unexpected.map((f) => ({ id: f.id, message: f.message })),
    stale_recordings: report.recordings.stale.map((s) => ({ id: s.id, missing: s.missing, message: s.message })),
    outside: report.diff?.outside.map((c) => `${c.severity}: ${c.message}`) ?? [],
    skipped: report.skipped.map((i) => i.name),
    junit: gateSuites(report).flatMap((suite) => suite.cases.map((c) => ({ ...c, classname: `${version}.${c.classname ?? suite.name}` }))),
  };
}

function rowOf(version: string, v: GateVerdict, origin: SnapshotOrigin, reused: boolean): MatrixRow {
  return {
    version,
    verdict: v.verdict,
    failing: v.failing,
    failures: v.failures,
    staleRecordings: v.stale_recordings,
    outside: v.outside,
    skipped: v.skipped,
    origin,
    reused,
    junit: v.junit,
  };
}

const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

async function selectVersions(options: MatrixOptions): Promise<{ versions: string[]; from: MatrixReport["versionsFrom"] }> {
  const spec = options.matrix.trim();
  const list = spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length > 0 && list.every((v) => EXACT.test(v)) && !options.published) return { versions: sortVersions(list), from: "given" };
  if (spec !== "all") {
    const problem = rangeProblem(spec);
    if (problem)
      throw new UserError(`--matrix ${JSON.stringify(spec)}: ${problem}`, {
        code: "USAGE",
        field: "--matrix",
        fix: "Give all, a range such as >=0.21.0 or 0.28.x, or versions separated by commas (0.21.0,0.28.2).",
      });
  }
  const { versions, from } = options.published
    ? { versions: [...options.published], from: "given" as const }
    : await publishedVersions({ cacheRoot: options.cacheRoot, refresh: options.refresh });
  const chosen = sortVersions(spec === "all" ? versions : versions.filter((v) => satisfies(v, spec)));
  if (chosen.length === 0) {
    throw new UserError(`--matrix ${JSON.stringify(spec)} matches no published version`, {
      code: "USAGE",
      field: "--matrix",
      fix: `Published versions: ${versions.join(", ")}.`,
    });
  }
  return { versions: chosen, from };
}

function sortVersions(versions: readonly string[]): string[] {
  const key = (v: string) => v.split(/[.-]/).slice(0, 3).map(Number);
  return [...new Set(versions)].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]! || a.localeCompare(b);
  });
}
