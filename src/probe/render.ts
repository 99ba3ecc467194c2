import { describeDriver, type ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import type { JunitCase, JunitSuite } from "#src/util/junit.js";
import type { CheckReport } from "#src/contract/check.js";
import type { DriverDiff } from "#src/contract/diff.js";

const MARK = { succeeded: "ok  ", failed: "FAIL", unsupported: "--  ", passed: "ok  ", unverified: "note" } as const;

/** The human summary of a probe. */
export function renderSnapshot(snapshot: ProbeSnapshot): string {
  const d = snapshot.driver;
  const lines = [`cua-driver ${d.version ?? "(version unknown)"} — ${describeDriver(d)}`, "steps:"];
  for (const s of snapshot.steps) {
    lines.push(
      `  ${MARK[s.status]} ${s.step.padEnd(15)} ${`${s.duration_ms} ms`.padStart(9)}${s.message ? `  ${s.timed_out ? "timed out: " : ""}${s.message}` : ""}`,
    );
  }
  const tools = snapshot.tools_list?.tools;
  const facts: string[] = [];
  if (tools) facts.push(`${tools.length} tools (${tools.filter((t) => t.outputSchema).length} with outputSchema)`);
  else if (snapshot.list_tools) facts.push(`${snapshot.list_tools.length} tools (names only)`);
  if (snapshot.manifest) facts.push(`${snapshot.manifest.subcommands.length} subcommands`);
  const protocol = snapshot.initialize?.protocolVersion ?? snapshot.metadata?.mcpProtocolVersion;
  if (protocol) facts.push(`MCP ${protocol}`);
  if (snapshot.metadata?.contractVersion) facts.push(`contract ${snapshot.metadata.contractVersion}`);
  if (snapshot.mcp_eras) facts.push(`MCP eras ${snapshot.mcp_eras.join(" + ")}`);
  if (snapshot.skills) facts.push(`${snapshot.skills.skills.length} skill(s), ${snapshot.skills.resources.length} resource(s)`);
  if (facts.length) lines.push(facts.join(", "));
  const platforms = Object.entries(snapshot.by_platform ?? {});
  if (platforms.length) {
    const each = platforms.map(([p, f]) => `${p} ${f.tools} tools${f.output_schemas !== undefined ? ` (${f.output_schemas} with outputSchema)` : ""}`);
    lines.push(`per platform: ${each.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The human result of a contract check: every gap, then a one-line verdict. */
export function renderCheck(report: CheckReport, contractName: string): string {
  const lines = [`contract ${contractName}: ${report.items.filter((i) => i.status === "passed").length}/${report.items.length} items present`];
  const unchecked = report.gaps.filter((g) => g.kind === "argv" && !g.blocking);
  if (unchecked.length) lines.push(`  note driver CLI not checked (an sdk probe has no CLI): ${unchecked.map((g) => g.name).join(", ")}`);
  for (const gap of report.gaps) if (!unchecked.includes(gap)) lines.push(`  ${gap.blocking ? "FAIL" : "note"} ${gap.message}`);
  lines.push(report.ok ? "ok: everything this contract needs is present" : `FAIL: ${report.gaps.filter((g) => g.blocking).length} gap(s)`);
  return `${lines.join("\n")}\n`;
}

export function renderDiff(diff: DriverDiff): string {
  const c = diff.counts;
  const lines = [
    `${diff.from.version ?? diff.from.source} → ${diff.to.version ?? diff.to.source}: ${c.breaking} breaking, ${c.behavioural} behavioural, ${c.additive} additive, ${c.cosmetic} cosmetic`,
  ];
  for (const [which, side] of [["first", diff.from] as const, ["second", diff.to] as const]) {
    if (side.read_from_source) lines.push(`  source      the ${which} side is ${side.read_from_source}`);
  }
  for (const change of diff.changes) lines.push(`  ${change.severity.padEnd(11)} ${change.message}${change.path ? `  (${change.path})` : ""}`);
  for (const note of diff.notes) lines.push(`  note        ${note}`);
  return `${lines.join("\n")}\n`;
}

/** One JUnit case per contract item. */
export function checkSuite(report: CheckReport): JunitSuite {
  return {
    name: "contract",
    cases: report.items.map((item): JunitCase => {
      const c: JunitCase = { name: `${item.kind} ${item.name}`, classname: `contract.${item.kind}` };
      if (item.status === "failed") c.failure = { message: item.message, type: item.kind };
      if (item.status === "unverified") c.skipped = item.message;
      return c;
    }),
  };
}
