import type { LoadedBase } from "./bases.js";
import type { CampaignFailure, CampaignResult } from "./campaign.js";
import type { MutantResult } from "./mutant-campaign.js";
import type { Shard } from "./shard.js";

const paint = (text: string, code: number, color: boolean) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);

/** One carriage-return progress line for a TTY. */
export function progressLine(done: number, total: number, violations: number, last: boolean): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  return `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} runs, ${violations} failing${last ? "\n" : ""}`;
}

export function renderFailure(o: { failure: CampaignFailure; base: LoadedBase; reproduce: string; saved?: string | undefined; color: boolean }): string {
  const f = o.failure;
  const lines = [
    paint(`✗ run ${f.run} (seed ${f.seed}), shrunk to ${f.fcase.steps.length} steps and ${f.fcase.rules.length} fault rules over ${o.base.name}:`, 31, o.color),
  ];
  for (const v of f.violations) lines.push(`    ${v.check}: ${v.message}`);
  lines.push(`    faults: ${f.fcase.rules.map((r) => `${JSON.stringify(r.match)} → ${JSON.stringify(r.fault)}`).join("; ") || "none"}`);
  lines.push(`    steps: ${f.fcase.steps.map((s) => s.action).join(", ")}`);
  lines.push(`    reproduce: ${o.reproduce}`);
  if (o.saved) lines.push(`    saved: ${o.saved}`);
  return `${lines.join("\n")}\n`;
}

export function renderSummary(o: { result: CampaignResult; seed: number; harness: string; shard?: Shard; bases: number; color: boolean }): string {
  const rows: [string, string][] = [
    ["harness", o.harness],
    ["runs", `${o.result.runs}${o.shard ? ` (shard ${o.shard.index}/${o.shard.count})` : ""}`],
    ["seed", String(o.seed)],
    ["bases", String(o.bases)],
    ["failing runs", String(o.result.violations)],
  ];
  const table = rows.map(([k, v]) => `  ${k.padEnd(13)}${v}`).join("\n");
  const verdict =
    o.result.violations === 0
      ? paint("no violations", 32, o.color)
      : paint(`${o.result.violations} failing run${o.result.violations === 1 ? "" : "s"}`, 31, o.color);
  return `${table}\n${verdict}\n`;
}

export function renderMutants(o: { mutants: readonly MutantResult[]; runs: number; seed: number; color: boolean }): string {
  const w = Math.max(...o.mutants.map((m) => m.name.length));
  const lines = [`  ${"mutant".padEnd(w)}  caught  runs  by`];
  for (const m of o.mutants) {
    const caught = m.caught ? paint("yes   ", 32, o.color) : paint("NO    ", 31, o.color);
    lines.push(`  ${m.name.padEnd(w)}  ${caught}  ${String(m.runs).padStart(4)}  ${m.invariant ?? "-"}`);
  }
  const survived = o.mutants.filter((m) => !m.caught).length;
  lines.push(
    survived === 0
      ? paint(`all ${o.mutants.length} mutants caught within ${o.runs} runs (seed ${o.seed})`, 32, o.color)
      : paint(`${survived} of ${o.mutants.length} mutants survived ${o.runs} runs (seed ${o.seed})`, 31, o.color),
  );
  return `${lines.join("\n")}\n`;
}
