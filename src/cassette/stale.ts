import { UserError } from "#src/errors.js";
import { satisfies } from "#src/util/versions.js";
import type { CassetteHeader } from "#src/schema/cassette.js";

/** Why a cassette should be re-recorded: too old, or made with a driver outside the range a harness targets. */
export interface Staleness {
  stale: boolean;
  /** Days since `recorded_at` (fractional), when it parses. */
  ageDays?: number;
  reasons: string[];
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `2w`, `90m` → milliseconds; a bare number is days. Misuse names the flag. */
export function parseMaxAge(text: string, flag = "--max-age"): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)?$/.exec(text.trim());
  if (!m)
    throw new UserError(`${flag} must be a duration like 30d, 12h or 2w, got ${JSON.stringify(text)}`, {
      code: "USAGE",
      field: flag,
      fix: `Pass e.g. ${flag} 30d.`,
    });
  return Number(m[1]) * UNITS[m[2] ?? "d"]!;
}

/**
 * Judges a cassette header against an age limit and a driver version range (either may be
 * absent). A `recorded_at` that does not parse, or a missing driver version, is a reason too:
 * its age or version cannot be vouched for.
 */
export function judgeStaleness(options: { header: CassetteHeader; now: number; maxAgeMs?: number; versions?: string }): Staleness {
  const { header } = options;
  const reasons: string[] = [];
  const at = Date.parse(header.recorded_at);
  const ageDays = Number.isFinite(at) ? (options.now - at) / UNITS.d! : undefined;
  if (options.maxAgeMs !== undefined) {
    if (ageDays === undefined) reasons.push(`recorded_at ${JSON.stringify(header.recorded_at)} is not a date`);
    else if (options.now - at > options.maxAgeMs)
      reasons.push(`recorded ${formatDays(ageDays)} ago (${header.recorded_at}), older than ${formatDays(options.maxAgeMs / UNITS.d!)}`);
  }
  if (options.versions !== undefined) {
    const v = header.driver.version;
    if (v === null) reasons.push(`the driver version was not recorded; the contract wants ${options.versions}`);
    else if (!satisfies(v, options.versions)) reasons.push(`recorded with cua-driver ${v}, outside ${options.versions}`);
  }
  return { stale: reasons.length > 0, ...(ageDays !== undefined ? { ageDays } : {}), reasons };
}

function formatDays(days: number): string {
  if (days >= 1) return `${Math.floor(days)} day${Math.floor(days) === 1 ? "" : "s"}`;
  const hours = days * 24;
  return hours >= 1 ? `${Math.floor(hours)} h` : `${Math.round(hours * 60)} min`;
}
