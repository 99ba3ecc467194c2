import type { JunitCase, JunitSuite } from "#src/util/junit.js";
import type { AnswerDifference } from "./answer-diff.js";
import type { VerifyReport } from "./run-verify.js";

const SHOWN = 6;

/** The human report: one line per call, its differences with their JSON paths, and what was not re-run exactly. */
export function renderVerify(report: VerifyReport): string {
  const lines = [
    `verify: ${report.cassette} (recorded with ${report.recorded.location ?? report.recorded.version ?? "an unknown driver"}) against ${report.candidate.location}${report.desktop ? " on a fresh desktop" : " without a desktop"}`,
  ];
  for (const call of report.calls) {
    const status = !call.sent ? "not sent" : (call.worst ?? "same");
    lines.push(`  #${String(call.seq).padEnd(3)} ${call.label.padEnd(28)} ${status}`);
    const groups = grouped(call.differences.filter((d) => d.severity !== "cosmetic"));
    for (const g of groups.slice(0, SHOWN)) lines.push(`         ${g.severity.padEnd(11)} ${g.path}: ${g.message}${g.count > 1 ? ` (×${g.count})` : ""}`);
    if (groups.length > SHOWN) lines.push(`         … ${groups.length - SHOWN} more (see --json)`);
    const cosmetic = call.differences.filter((d) => d.severity === "cosmetic").length;
    if (cosmetic) lines.push(`         cosmetic    ${cosmetic} text change(s)`);
    for (const note of call.notes) lines.push(`         note        ${note}`);
  }
  const c = report.counts;
  lines.push(
    `differences: ${c.breaking} breaking, ${c.behavioural} behavioural, ${c.additive} additive, ${c.cosmetic} cosmetic; ${report.calls.length - report.notSent}/${report.calls.length} call(s) sent (geometry within ${report.tolerance} px, ids, tokens and times normalised)`,
  );
  if (report.updated) lines.push(`wrote the candidate's answers to ${report.updated}`);
  lines.push(
    report.ok
      ? "ok: the candidate answers this flow as recorded (no breaking or behavioural difference)"
      : `FAIL: the candidate answers differently, first at event ${report.divergence?.seq} (${report.divergence?.label})`,
  );
  return `${lines.join("\n")}\n`;
}

/** Differences that differ only by array index, folded into one line (`$.elements[*].actions is new ×152`). */
function grouped(differences: readonly AnswerDifference[]): Array<{ severity: string; path: string; message: string; count: number }> {
  const out = new Map<string, { severity: string; path: string; message: string; count: number }>();
  for (const d of differences) {
    const path = d.path.replace(/\[\d+\]/g, "[*]");
    const key = `${d.severity} ${path} ${d.kind}`;
    const seen = out.get(key);
    if (seen) seen.count++;
    else out.set(key, { severity: d.severity, path, message: d.path === path ? d.message : d.message.replaceAll(d.path, path), count: 1 });
  }
  return [...out.values()];
}

/** JUnit: one case per recorded call; breaking and behavioural differences fail it, a call not sent is skipped. */
export function verifySuites(report: VerifyReport): JunitSuite[] {
  const cases = report.calls.map((call): JunitCase => {
    const name = `#${call.seq} ${call.label}`;
    if (!call.sent) return { name, classname: "verify", skipped: call.notes.join("; ") };
    const bad = call.differences.filter((d) => d.severity === "breaking" || d.severity === "behavioural");
    if (bad.length === 0) return { name, classname: "verify" };
    return {
      name,
      classname: "verify",
      failure: { message: bad.map((d) => `${d.severity} ${d.path}: ${d.message}`).join("; "), type: bad[0]!.severity, details: call.notes.join("\n") },
    };
  });
  return [{ name: `verify ${report.cassette} against ${report.candidate.location}`, cases }];
}
