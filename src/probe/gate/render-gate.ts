import type { JunitCase, JunitSuite } from "#src/util/junit.js";
import { checkSuite } from "#src/probe/render.js";
import type { Change } from "#src/contract/change.js";
import type { GateReport } from "./run-gate.js";
import { describeDriver } from "#src/schema/probe-snapshot.js";

/** The human report of a gate run. */
export function renderGate(report: GateReport, options: { expectedFile?: string | undefined } = {}): string {
  const c = report.candidate;
  const lines = [`gate: cua-driver ${c.version ?? "(version unknown)"} (${describeDriver(c)}) against ${report.contract.file}`];
  if (!report.reachable) {
    lines.push("FAIL: the candidate could not be probed at all (no probe step succeeded); run `cua-contract probe` on it for details");
    return `${lines.join("\n")}\n`;
  }
  const where = report.snapshot.file ? ` (${report.snapshot.file})` : "";
  if (report.snapshot.origin === "cache") lines.push(`snapshot: from the cache${where}; a published version never changes (--refresh probes it again)`);
  else if (report.snapshot.origin === "kept") lines.push(`snapshot: kept${where}`);
  else if (report.snapshot.origin === "source") lines.push(`snapshot: read from source${where}; tools by name only, their schemas unknown`);
  const tag = (id: string) => (report.expected.some((f) => f.id === id) ? "expected" : "FAIL");
  const check = report.check!;
  lines.push(`contract: ${check.items.filter((i) => i.status === "passed").length}/${check.items.length} items present`);
  for (const item of check.items) if (item.status === "failed") lines.push(`  ${tag(item.id).padEnd(8)} ${item.message}  [${item.id}]`);
  for (const gap of check.gaps) if (!gap.blocking && gap.kind === "version") lines.push(`  note     ${gap.message}`);
  lines.push(...renderSkipped(report));
  if (report.diff) {
    const counts = { breaking: 0, behavioural: 0, additive: 0, cosmetic: 0 };
    for (const ch of report.diff.changes) counts[ch.severity]++;
    lines.push(
      `diff against ${report.diff.baseline} (${report.diff.from ?? "?"}): ${counts.breaking} breaking, ${counts.behavioural} behavioural, ${counts.additive} additive, ${counts.cosmetic} cosmetic`,
    );
    for (const f of report.failures.filter((x) => x.source === "diff")) lines.push(`  ${tag(f.id).padEnd(8)} ${f.message}  [${f.id}]`);
    for (const f of report.failures.filter((x) => x.source === "contract" && x.aliases?.length)) {
      lines.push(`  same     ${f.aliases!.join(", ")}: the diff change behind ${f.id}, counted once`);
    }
    for (const ch of report.diff.outside) lines.push(`  listed   ${ch.severity}: ${ch.message} (${outsideWhy(ch)}; not failed)`);
  } else if (report.diffNote) lines.push(`diff: ${report.diffNote}`);
  const rec = report.recordings;
  if (rec.cassettes.length) {
    const broken = rec.checks.filter((x) => x.breaks.length).length;
    const stale = rec.stale.length ? `, ${rec.stale.length} stale` : "";
    lines.push(`recordings: ${rec.cassettes.length} cassette(s), ${rec.calls} recorded call(s) checked, ${broken} would break${stale}`);
    for (const b of rec.breaks) lines.push(`  ${tag(b.id).padEnd(8)} ${b.message}  [${b.id}]`);
    for (const st of rec.stale) lines.push(`  stale    ${st.message}`);
    for (const r of rec.rerecord) lines.push(`  re-record ${r.cassette}: ${r.command}`);
    for (const w of rec.warnings) lines.push(`  note     ${w}`);
    if (report.recordingsNote) lines.push(`  note     ${report.recordingsNote}`);
  }
  if (report.expected.length) lines.push(`expected failures (listed in ${options.expectedFile ?? "the baseline"}): ${report.expected.length}`);
  for (const id of report.stale) lines.push(`  FAIL     stale baseline entry, no longer failing: ${id}`);
  const okLine =
    c.source === "source"
      ? "ok: the roster read from source lists every tool this contract names; what it cannot show is listed above"
      : "ok: the candidate provides everything this contract and these recordings use";
  lines.push(
    report.ok
      ? okLine
      : `FAIL: ${report.unexpected.length} new failure(s)${report.stale.length ? `, ${report.stale.length} stale baseline entr${report.stale.length === 1 ? "y" : "ies"}` : ""}`,
  );
  return `${lines.join("\n")}\n`;
}

/** Contract items the probe could not see, with the reason and how to check them (an sdk probe's argv items as one line). */
function renderSkipped(report: GateReport): string[] {
  const c = report.candidate;
  if (c.source === "source" && report.skipped.length) {
    const kinds = new Map<string, number>();
    for (const item of report.skipped) kinds.set(item.kind, (kinds.get(item.kind) ?? 0) + 1);
    const each = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(", ");
    return [
      `  skipped  ${report.skipped.length} item(s) not checked, read from source (tool names only): ${each} (--json lists them); check them with --driver PATH (a cua-driver binary built from ${c.commit?.slice(0, 8)})`,
    ];
  }
  const noCli = c.source === "sdk" ? report.skipped.filter((i) => i.kind === "argv") : [];
  const lines = noCli.length
    ? [
        `  skipped  ${noCli.length} item(s) not checked, the published runtime has no CLI: ${noCli.map((i) => i.name).join(", ")}; check them with --driver PATH (a cua-driver binary of the same version)`,
      ]
    : [];
  for (const item of report.skipped) {
    if (noCli.includes(item)) continue;
    lines.push(`  skipped  ${item.message}; check it with a probe that can see it (\`cua-contract probe --driver PATH --contract …\`)  [${item.id}]`);
  }
  return lines;
}

function outsideWhy(change: Change): string {
  if (change.tool !== undefined) return `${change.tool} is not in the contract`;
  if (change.covers?.length) return `it covers ${change.covers.join(", ")}, none of them in the contract`;
  return "it covers no tool";
}

/** JUnit: one case per contract item, per failing diff change, per recorded call, per stale baseline entry. */
export function gateSuites(report: GateReport): JunitSuite[] {
  if (!report.check) return [{ name: "probe", cases: [{ name: "candidate reachable", failure: { message: "the candidate could not be probed at all" } }] }];
  const expected = new Map(report.expected.map((f) => [f.id, f]));
  const xfail = (c: JunitCase, id: string, message: string): JunitCase => {
    if (!expected.has(id) || !c.failure) return c;
    const { failure: _f, ...rest } = c;
    return { ...rest, skipped: `expected failure: ${message}` };
  };
  const contract = checkSuite(report.check);
  contract.cases = contract.cases.map((c, i) => {
    const item = report.check!.items[i]!;
    return xfail(c, item.id, item.message);
  });
  const diffCases = report.failures
    .filter((f) => f.source === "diff")
    .map((f) => xfail({ name: f.id, classname: "diff", failure: { message: f.message, type: "diff" } }, f.id, f.message));
  if (report.diff) diffCases.push({ name: `no other failing change against ${report.diff.baseline}`, classname: "diff" });
  const recordings = report.recordings.checks.map((chk): JunitCase => {
    const name = `${chk.call.cassette}#${chk.call.event} ${chk.call.tool}`;
    if (chk.breaks.length === 0)
      return chk.checked.length ? { name, classname: "recordings" } : { name, classname: "recordings", skipped: "no schema to check against" };
    const unexpected = chk.breaks.filter((b) => !expected.has(b.id));
    const message = chk.breaks.map((b) => b.message).join("; ");
    if (unexpected.length === 0) return { name, classname: "recordings", skipped: `expected failure: ${message}` };
    return { name, classname: "recordings", failure: { message, type: "recording", details: chk.breaks.map((b) => `${b.id}: ${b.reason}`).join("\n") } };
  });
  const suites: JunitSuite[] = [contract, { name: "diff", cases: diffCases }, { name: "recordings", cases: recordings }];
  if (report.stale.length) {
    suites.push({
      name: "baseline",
      cases: report.stale.map((id) => ({ name: id, failure: { message: `stale baseline entry, no longer failing: ${id}`, type: "stale" } })),
    });
  }
  return suites;
}
