import type { JunitCase, JunitSuite } from "../report/junit.js";
import type { VerifyReport } from "./run-verify.js";

const SHOWN = 6;

/** The human report: one line per call, its differences with their JSON paths, and what was not re-run exactly. */
export function renderVerify(report: VerifyReport): string {
  const lines = [
    `verify: ${report.cassette} (recorded with ${report.recorded.location ?? report.recorded.version ?? "an unknown driver"}) against ${report.candidate.location}${report.desktop ? " on a fresh desktop" : " without a desktop"}`,
  ];
  for (const call of report.calls) {
    const status = !call.sent ? "not sent" : call.worst ?? "same";
    lines.push(`  #${String(call.seq).padEnd(3)} ${call.label.padEnd(28)} ${status}`);
    const shown = call.differences.filter((d) => d.severity !== "cosmetic");
    for (const d of shown.slice(0, SHOWN)) lines.push(`         ${d.severity.padEnd(11)} ${d.path}: ${d.message}`);
    if (shown.length > SHOWN) lines.push(`         … ${shown.length - SHOWN} more (see --json)`);
    const cosmetic = call.differences.length - shown.length;
    if (cosmetic) lines.push(`         cosmetic    ${cosmetic} text change(s)`);
    for (const note of call.notes) lines.push(`         note        ${note}`);
  }
  const c = report.counts;
  lines.push(`differences: ${c.breaking} breaking, ${c.behavioural} behavioural, ${c.additive} additive, ${c.cosmetic} cosmetic; ${report.calls.length - report.notSent}/${report.calls.length} call(s) sent (geometry within ${report.tolerance} px, ids, tokens and times normalised)`);
  if (report.updated) lines.push(`wrote the candidate's answers to ${report.updated}`);
  lines.push(report.ok ? "ok: the candidate answers this flow as recorded (no breaking or behavioural difference)" : `FAIL: the candidate answers differently, first at event ${report.divergence?.seq} (${report.divergence?.label})`);
  return `${lines.join("\n")}\n`;
}

/** JUnit: one case per recorded call; breaking and behavioural differences fail it, a call not sent is skipped. */
export function verifySuites(report: VerifyReport): JunitSuite[] {
  const cases = report.calls.map((call): JunitCase => {
    const name = `#${call.seq} ${call.label}`;
    if (!call.sent) return { name, classname: "verify", skipped: call.notes.join("; ") };
    const bad = call.differences.filter((d) => d.severity === "breaking" || d.severity === "behavioural");
    if (bad.length === 0) return { name, classname: "verify" };
    return { name, classname: "verify", failure: { message: bad.map((d) => `${d.severity} ${d.path}: ${d.message}`).join("; "), type: bad[0]!.severity, details: call.notes.join("\n") } };
  });
  return [{ name: `verify ${report.cassette} against ${report.candidate.location}`, cases }];
}
