import type { JunitSuite } from "#src/util/junit.js";
import { GATE_HISTORY_FORMAT, type GateHistoryEntry } from "#src/schema/gate-history.js";
import type { MatrixReport } from "./run-matrix.js";

const SHOWN = 4;

/** The table: version | verdict | failing items | stale recordings. */
export function renderMatrix(report: MatrixReport): string {
  const rec = report.recordings;
  const lines = [
    `gate --matrix ${report.range}: ${report.rows.length} version(s) against ${report.contract.file}${rec.cassettes.length ? `, ${rec.cassettes.length} cassette(s), ${rec.calls} recorded call(s)` : ""}`,
    "",
    "| version | verdict | failing items | stale recordings |",
    "| --- | --- | --- | --- |",
  ];
  for (const row of report.rows) {
    const shown = row.failing.slice(0, SHOWN).map((id) => `\`${id}\``);
    if (row.failing.length > SHOWN) shown.push(`… ${row.failing.length - SHOWN} more`);
    const failing = row.failing.length ? `${row.failing.length}: ${shown.join(", ")}` : "–";
    lines.push(`| ${row.version} | ${row.verdict} | ${failing} | ${row.staleRecordings.length || "–"} |`);
  }
  lines.push("");
  const probed = report.rows.filter((r) => r.origin === "probe").map((r) => r.version);
  const sources = report.rows.filter((r) => r.origin === "source").map((r) => r.version);
  const reused = report.rows.filter((r) => r.reused).length;
  lines.push(
    `snapshots: ${probed.length ? `probed now: ${probed.join(", ")}; ` : ""}${report.rows.length - probed.length - sources.length} from the cache or kept snapshots (published versions never change); ${reused} verdict(s) reused (nothing they depend on changed)`,
  );
  if (sources.length)
    lines.push(
      `read from source, not probed: ${sources.join(", ")} (tool names only: schema items and recorded calls not checked; never a version to bump to)`,
    );
  lines.push(
    report.newestPassing ? `newest version this contract and these recordings can bump to: ${report.newestPassing}` : "no version in the range passes",
  );
  return `${lines.join("\n")}\n`;
}

/** The JSON document of a matrix run. */
export function matrixJson(report: MatrixReport): unknown {
  return {
    ok: report.ok,
    contract: report.contract,
    range: report.range,
    recordings: report.recordings,
    versions_from: report.versionsFrom,
    newest_passing: report.newestPassing,
    rows: report.rows.map((r) => ({
      version: r.version,
      verdict: r.verdict,
      failing: r.failing,
      failures: r.failures,
      stale_recordings: r.staleRecordings,
      outside: r.outside,
      skipped: r.skipped,
      snapshot: r.origin,
      reused: r.reused,
    })),
  };
}

/** JUnit: one suite per version, holding that version's contract, diff and recording cases. */
export function matrixSuites(report: MatrixReport): JunitSuite[] {
  return report.rows.map((row) => ({ name: `cua-driver ${row.version}`, cases: row.junit }));
}

/** One line for the history file. */
export function historyEntry(report: MatrixReport, at: Date): GateHistoryEntry {
  return {
    format: GATE_HISTORY_FORMAT,
    version: 1,
    at: at.toISOString(),
    contract: report.contract.file,
    range: report.range,
    recordings: report.recordings.cassettes,
    newest_passing: report.newestPassing,
    versions: report.rows.map((r) => ({ version: r.version, verdict: r.verdict, failing: r.failing, stale_recordings: r.staleRecordings.length })),
  };
}
