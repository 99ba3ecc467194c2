import type { InvariantReport } from "./types.js";

/** Plain-text lines for a report: one per violated invariant, then its evidence. */
export function formatInvariantReport(report: InvariantReport): string[] {
  const lines: string[] = [];
  for (const r of report.results) {
    if (r.passed) continue;
    lines.push(`✗ ${r.id}: ${r.statement}`);
    for (const v of r.violations) {
      lines.push(`    ${v.message}`);
      const faults = v.evidence.faults.length ? `; faults: ${v.evidence.faults.join(", ")}` : "";
      lines.push(`    evidence: requests ${v.evidence.requests.map((n) => `#${n}`).join(", ")}; tools: ${v.evidence.tools.join(", ")}${faults}`);
    }
  }
  const failed = report.results.filter((r) => !r.passed).length;
  lines.push(
    failed === 0
      ? `invariants: all ${report.results.length} hold over ${report.requests} requests`
      : `invariants: ${failed} of ${report.results.length} violated over ${report.requests} requests`,
  );
  return lines;
}
