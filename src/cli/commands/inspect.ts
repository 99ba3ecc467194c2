import { countEvents, type CassetteSummary } from "#src/cassette/summary.js";
import { defineCommand } from "#src/cli/command.js";
import path from "node:path";
import { CASSETTE_FILE, PROBE_FILE } from "#src/cassette/cassette.js";
import { scanCassette, type CassetteValidators } from "#src/cassette/scan.js";
import { NeedsSchemaCheck, quickValidators } from "#src/cassette/quick-validate.js";
import { answerHealth } from "#src/cassette/answer-health.js";
import type { CassetteEvent } from "#src/schema/cassette.js";

const PROBE_PROBLEMS: Partial<Record<CassetteSummary["probe"]["status"], string>> = {
  mismatched:
    "does not match driver.probe_sha256 in the header (field driver.probe_sha256). Restore probe.json from the original recording, or re-record the cassette.",
  missing: "is missing but the header names one (field driver.probe_sha256). Restore probe.json from the original recording, or re-record the cassette.",
};

export const inspectCommand = defineCommand({
  command: "inspect <dir>",
  describe: "Load and validate a cassette: header, event counts, frames (missing or altered) and warnings",
  builder: (y) =>
    y
      .positional("dir", { type: "string", describe: "Cassette directory (holds cassette.jsonl)" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document" }),
  handler: async (args) => {
    const dir = String(args.dir);
    let summary: CassetteSummary & { stand_in?: StandInCounts };
    try {
      summary = summarize(dir, quickValidators);
    } catch (error) {
      if (!(error instanceof NeedsSchemaCheck)) throw error;
      summary = summarize(dir, (await import("#src/cassette/reader.js")).schemaValidators);
    }
    const cassette = { dir, file: path.join(dir, CASSETTE_FILE) };
    process.stdout.write(args.json ? `${JSON.stringify(summary, null, 2)}\n` : renderSummary(summary));
    const bad = [...summary.frames.mismatched.map((r) => `${r} does not match its hash`), ...summary.frames.missing.map((r) => `${r} is missing`)];
    if (bad.length > 0) {
      process.stderr.write(
        `cua-contract: ${cassette.file}: frames: ${bad.join("; ")}. Restore the frames from the original recording, or re-record the cassette.\n`,
      );
    }
    const probe = PROBE_PROBLEMS[summary.probe.status];
    if (probe) process.stderr.write(`cua-contract: ${path.join(cassette.dir, PROBE_FILE)}: ${probe}\n`);
    return bad.length > 0 || probe ? 2 : 0;
  },
});

// Streams the cassette: memory holds one event at a time, whatever the cassette's size.
function summarize(dir: string, validators: CassetteValidators): CassetteSummary & { stand_in?: StandInCounts } {
  const counter = countEvents();
  const health = answerHealth();
  const standIn = standInCounts();
  const scan = scanCassette({
    dir,
    validators,
    frames: "report",
    onEvent: (e) => {
      counter.add(e);
      health.add(e);
      standIn.add(e);
    },
  });
  const summary = counter.summary({
    dir: scan.dir,
    header: scan.header,
    frameStats: scan.frameStats,
    warnings: [...scan.warnings, ...health.warnings()],
    ...(scan.probe ? { probeSha256: scan.probe.sha256 } : {}),
  });
  const counts = standIn.counts();
  return counts ? { ...summary, stand_in: counts } : summary;
}

/** What the recording's stand-in built of the recorded answers (decision 0271): whole answers by kind, parts around the driver's bytes by part. */
interface StandInCounts {
  synthesized: Record<string, number>;
  wrapped: Record<string, number>;
}

function standInCounts(): { add(e: CassetteEvent): void; counts(): StandInCounts | undefined } {
  const out: StandInCounts = { synthesized: {}, wrapped: {} };
  let any = false;
  return {
    add(e) {
      if (e.kind !== "mcp") return;
      if (e.synthesized) out.synthesized[e.synthesized.kind] = (out.synthesized[e.synthesized.kind] ?? 0) + 1;
      for (const part of e.wrapped?.parts ?? []) out.wrapped[part] = (out.wrapped[part] ?? 0) + 1;
      any ||= Boolean(e.synthesized || e.wrapped);
    },
    counts: () => (any ? out : undefined),
  };
}

function renderSummary(s: CassetteSummary & { stand_in?: StandInCounts }): string {
  const h = s.header;
  const d = h.driver;
  const counts = (m: Record<string, number>) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") || "none";
  const lines = [
    `cassette   ${s.dir}`,
    `format     ${h.format} v${h.version}, transport ${h.transport}, recorded ${h.recorded_at} by ${h.recorder.name} ${h.recorder.version}`,
    `driver     ${d.version ?? "unknown version"} (${d.source}, ${d.platform})${d.manifest_sha256 ? `, manifest sha256 ${d.manifest_sha256.slice(0, 12)}…` : ""}${d.location ? `, ${d.location}` : ""}`,
    `redaction  ${h.redaction ? (h.redaction.enabled ? `on${h.redaction.patterns?.length ? ` (+${h.redaction.patterns.length} patterns)` : ""}` : "off") : "not recorded"}`,
    `events     ${s.events} (${counts(s.by_kind)}; origin: ${counts(s.by_origin)})`,
    `tools      ${counts(s.by_tool)}`,
    `exit codes ${counts(s.by_exit_code)}`,
    ...(s.mcp_streams ? [`mcp        ${s.mcp_streams} stream(s)`] : []),
    ...(s.stand_in
      ? [
          `stand-in   answers the recording's stand-in built: ${counts(s.stand_in.synthesized)}; parts it built around the driver's results: ${counts(s.stand_in.wrapped)}`,
        ]
      : []),
    `probe      ${renderProbe(s.probe)}`,
    `frames     ${s.frames.count} (${s.frames.bytes} bytes); missing: ${s.frames.missing.join(", ") || "none"}; mismatched: ${s.frames.mismatched.join(", ") || "none"}`,
    `warnings   ${s.warnings.length ? "" : "none"}`,
    ...s.warnings.map((w) => `  - ${w}`),
  ];
  return `${lines.join("\n")}\n`;
}

function renderProbe(p: CassetteSummary["probe"]): string {
  const short = (h: string | undefined) => (h ? `${h.slice(0, 12)}…` : "");
  switch (p.status) {
    case "matches":
      return `probe.json, sha256 ${short(p.sha256)} matches the header`;
    case "mismatched":
      return `probe.json, sha256 ${short(p.sha256)} does NOT match the header's ${short(p.header_sha256)}`;
    case "missing":
      return `missing (the header names sha256 ${short(p.header_sha256)})`;
    case "unpinned":
      return `probe.json, sha256 ${short(p.sha256)} (the header names none)`;
    case "absent":
      return "none";
  }
}
