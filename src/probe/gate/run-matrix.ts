import { UserError } from "../../errors.js";
import { rangeProblem, satisfies } from "../analysis/versions.js";
import { acquireCandidate, judgeCandidate, prepareGate, type GateOptions, type GateReport } from "./run-gate.js";
import { publishedVersions } from "./published-versions.js";

export interface MatrixOptions extends Omit<GateOptions, "driver" | "sdk"> {
  /** `all`, a range (`>=0.21.0`, `0.28.x`), or exact versions separated by commas. */
  matrix: string;
  /** The published versions (default: the registry's list, cached for an hour). */
  published?: readonly string[] | undefined;
}

export type MatrixVerdict = "pass" | "fail" | "unreachable";

export interface MatrixRow {
  version: string;
  verdict: MatrixVerdict;
  /** Ids of the failures that are not in the expected-failures baseline, plus stale baseline entries. */
  failing: string[];
  /** Recorded outputs that lack what this version newly promises. */
  staleRecordings: number;
  /** Where the version's snapshot came from (`probe` means it was installed and probed in this run). */
  origin: GateReport["snapshot"]["origin"];
  report: GateReport;
}

export interface MatrixReport {
  contract: { file: string; name: string };
  range: string;
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
  const { versions, from } = await selectVersions(options);
  const rows: MatrixRow[] = [];
  // One at a time: a first run installs each version, and the runtime is a native library per process.
  for (const version of versions) {
    const candidate = await acquireCandidate({ ...options, sdk: version });
    const report = judgeCandidate(prepared, candidate);
    rows.push({
      version,
      verdict: !report.reachable ? "unreachable" : report.ok ? "pass" : "fail",
      failing: [...report.unexpected.map((f) => f.id), ...report.stale.map((id) => `stale-baseline:${id}`)],
      staleRecordings: report.recordings.stale.length,
      origin: report.snapshot.origin,
      report,
    });
  }
  const passing = rows.filter((r) => r.verdict === "pass");
  return {
    contract: { file: options.contract, name: prepared.contract.name },
    range: options.matrix,
    versionsFrom: from,
    rows,
    newestPassing: passing.at(-1)?.version ?? null,
    ok: rows.every((r) => r.verdict === "pass"),
  };
}

const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

async function selectVersions(options: MatrixOptions): Promise<{ versions: string[]; from: MatrixReport["versionsFrom"] }> {
  const spec = options.matrix.trim();
  const list = spec.split(",").map((s) => s.trim()).filter(Boolean);
  if (list.length > 0 && list.every((v) => EXACT.test(v)) && !options.published) return { versions: sortVersions(list), from: "given" };
  if (spec !== "all") {
    const problem = rangeProblem(spec);
    if (problem) throw new UserError(`--matrix ${JSON.stringify(spec)}: ${problem}`, { code: "USAGE", field: "--matrix", fix: "Give all, a range such as >=0.21.0 or 0.28.x, or versions separated by commas (0.21.0,0.28.2)." });
  }
  const { versions, from } = options.published
    ? { versions: [...options.published], from: "given" as const }
    : await publishedVersions({ cacheRoot: options.cacheRoot, refresh: options.refresh });
  const chosen = sortVersions(spec === "all" ? versions : versions.filter((v) => satisfies(v, spec)));
  if (chosen.length === 0) {
    throw new UserError(`--matrix ${JSON.stringify(spec)} matches no published version`, { code: "USAGE", field: "--matrix", fix: `Published versions: ${versions.join(", ")}.` });
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
