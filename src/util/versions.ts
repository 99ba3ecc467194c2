/**
 * The small slice of semver the contracts need: `0.21.x`, `0.21`, `0.21.0`, comparator sets
 * (`>=0.21.0 <0.23.0`), caret (`^0.21.0`), and `||` between alternatives.
 */
type Triple = [number, number, number];

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/;

/** `0.21.0` from `cua-driver 0.21.0`, `v0.21.0-rc1` or `0.21.0`; undefined when none is there. */
export function parseVersion(text: string): string | undefined {
  const m = /\bv?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\b/.exec(text);
  return m?.[1];
}

function triple(version: string): Triple | undefined {
  const m = VERSION.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Why a range is malformed, or undefined when it is fine. */
export function rangeProblem(range: string): string | undefined {
  for (const alt of range.split("||")) {
    const parts = alt.trim().split(/\s+/).filter(Boolean);
    if (parts.length === 0) return `empty alternative in "${range}"`;
    for (const part of parts) if (!comparator(part)) return `"${part}" is not a version, series (0.21.x) or comparator (>=0.21.0)`;
  }
  return undefined;
}

/** Whether `version` satisfies `range`. A malformed range or version never matches. */
export function satisfies(version: string, range: string): boolean {
  const v = triple(version);
  if (!v) return false;
  return range.split("||").some((alt) => {
    const parts = alt.trim().split(/\s+/).filter(Boolean);
    return parts.length > 0 && parts.every((part) => comparator(part)?.(v) ?? false);
  });
}

function comparator(part: string): ((v: Triple) => boolean) | undefined {
  const series = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(x|\*))?$/.exec(part);
  if (series) {
    const major = Number(series[1]);
    const minor = series[2] === undefined || series[2] === "x" || series[2] === "*" ? undefined : Number(series[2]);
    return (v) => v[0] === major && (minor === undefined || v[1] === minor);
  }
  const op = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(part);
  const t = op?.[2] ? triple(op[2]) : undefined;
  if (!op || !t) return undefined;
  switch (op[1]) {
    case ">=":
      return (v) => compare(v, t) >= 0;
    case "<=":
      return (v) => compare(v, t) <= 0;
    case ">":
      return (v) => compare(v, t) > 0;
    case "<":
      return (v) => compare(v, t) < 0;
    case "~":
      return (v) => v[0] === t[0] && v[1] === t[1] && v[2] >= t[2];
    case "^":
      return (v) => compare(v, t) >= 0 && (t[0] > 0 ? v[0] === t[0] : t[1] > 0 ? v[0] === 0 && v[1] === t[1] : compare(v, t) === 0);
    default:
      return (v) => compare(v, t) === 0;
  }
}
