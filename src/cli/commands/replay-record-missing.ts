import { harnessOutput } from "#src/cli/run-context.js";
import { UserError } from "#src/errors.js";
import type { MatchMode } from "#src/replay/engine/matcher.js";
import type { RecordMissingSummary } from "#src/recorder/record-missing/record-missing.js";
import { writeOutputFile } from "#src/report/write-output.js";

/** Flags of `replay` that do nothing under --record-missing: refused rather than ignored. */
const NOT_WITH_RECORD_MISSING = ["faults", "seed", "log", "junit", "fail-on-unused", "invariants", "max-age", "contract", "driver-versions"] as const;

/** `replay DIR --record-missing --driver sdk[:V] [--desktop] -- CMD` (docs/replay.md). */
export async function replayRecordMissingCommand(args: Record<string, unknown>, command: string[]): Promise<number> {
  for (const flag of NOT_WITH_RECORD_MISSING) {
    if (args[flag] !== undefined && args[flag] !== false) {
      throw new UserError(`--${flag} cannot be used with --record-missing`, {
        code: "USAGE",
        field: `--${flag}`,
        fix: "Grow the cassette first (replay --record-missing), then replay it with that flag.",
      });
    }
  }
  if (args.speed === "recorded") {
    throw new UserError("--speed recorded cannot be used with --record-missing", {
      code: "USAGE",
      field: "--speed",
      fix: "Drop --speed; the live calls take as long as they take.",
    });
  }
  if (typeof args.driver !== "string") {
    throw new UserError("--record-missing needs the live driver to forward to", {
      code: "USAGE",
      field: "--driver",
      fix: "Pass --driver sdk (the runtime this project pins), --driver sdk:VERSION or --driver PATH.",
    });
  }
  if (args["driver-source"] !== undefined && args.driver.startsWith("sdk")) {
    throw new UserError("--driver-source is for an executable driver; answers from --driver sdk are always source sdk", {
      code: "USAGE",
      field: "--driver-source",
      fix: "Drop --driver-source, or name the executable with --driver PATH.",
    });
  }
  const { replayRecordMissing } = await import("#src/recorder/record-missing/record-missing.js");
  const summary = await replayRecordMissing({
    dir: String(args.dir),
    command,
    driver: args.driver,
    ...(args["driver-source"] !== undefined ? { driverSource: args["driver-source"] as "binary" | "synthetic" } : {}),
    desktop: Boolean(args.desktop),
    allowInCi: Boolean(args["allow-in-ci"]),
    match: args.match as MatchMode,
    ignore: ((args.ignore as unknown[] | undefined) ?? []).map(String),
    harness: { output: harnessOutput() },
  });
  const json = jsonSummary(summary);
  if (typeof args["json-out"] === "string") writeOutputFile({ file: args["json-out"], flag: "--json-out", text: `${JSON.stringify(json, null, 2)}\n` });
  if (args.json) process.stdout.write(`${JSON.stringify(json)}\n`);
  else process.stderr.write(humanSummary(summary));
  return summary.exitCode;
}

function jsonSummary(s: RecordMissingSummary & { harnessExitCode: number; exitCode: number }) {
  return {
    file: s.file,
    served: s.served,
    added: s.added,
    forwarded: s.forwarded,
    ...(s.divergence ? { divergence: s.divergence } : {}),
    ids: s.ids,
    driver: s.driver,
    notes: s.notes,
    harnessExitCode: s.harnessExitCode,
    exitCode: s.exitCode,
  };
}

function humanSummary(s: RecordMissingSummary & { harnessExitCode: number; exitCode: number }): string {
  const who = s.driver.location ?? `${s.driver.source} ${s.driver.version ?? ""}`.trim();
  const lines = [
    `cua-contract replay --record-missing: served ${s.served} from the cassette, added ${s.added} from the live driver (${who}), ${s.forwarded} sent live; ids paired: ${s.ids.pid} pid, ${s.ids.window} window, ${s.ids.snapshot} snapshot (${s.ids.fresh} new)`,
    s.added > 0 ? `  grew ${s.file}` : `  nothing was missing: ${s.file} is unchanged`,
  ];
  if (s.divergence) {
    lines.push(`  left the recorded history at ${s.divergence.reason}; every later call was answered live and added after it`);
    if (s.divergence.dropped > 0)
      lines.push(`  ${s.divergence.dropped} recorded event(s) after it were left out; the old cassette is kept as ${s.divergence.backup ?? "?"}`);
  }
  for (const n of s.notes) lines.push(`  note: ${n}`);
  lines.push(`  exit ${s.exitCode}${s.harnessExitCode !== 0 ? ` (the harness exited ${s.harnessExitCode})` : ""}`);
  return `${lines.join("\n")}\n`;
}
