/**
 * A small JSON path dialect for `--ignore` and for naming where two requests differ:
 * `$.a.b`, `a.b`, `.a`, `a[0]`, `a[*].b`, `*` (any key or index at that step).
 */
export type PathStep = string | number | "*";

export function parsePath(path: string): PathStep[] {
  let rest = path.trim();
  if (rest.startsWith("$")) rest = rest.slice(1);
  const steps: PathStep[] = [];
  const re = /\.?([A-Za-z_$@][\w$@-]*|\*)|\[(\d+|\*|"(?:[^"\\]|\\.)*")\]/y;
  let pos = 0;
  while (pos < rest.length) {
    re.lastIndex = pos;
    const m = re.exec(rest);
    if (!m) throw new SyntaxError(`cannot read JSON path ${JSON.stringify(path)} at character ${pos + 1}`);
    if (m[1] !== undefined) steps.push(m[1] === "*" ? "*" : m[1]);
    else if (m[2] !== undefined) {
      const s = m[2];
      steps.push(s === "*" ? "*" : s.startsWith('"') ? (JSON.parse(s) as string) : Number(s));
    }
    pos = re.lastIndex;
  }
  if (steps.length === 0) throw new SyntaxError(`JSON path ${JSON.stringify(path)} names nothing`);
  return steps;
}

/** `$.a[0].b` */
export function formatPath(steps: readonly (string | number)[]): string {
  return "$" + steps.map((s) => (typeof s === "number" ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join("");
}

/** A deep copy of `value` without the members the paths name. */
export function withoutPaths(value: unknown, paths: readonly PathStep[][]): unknown {
  let out = structuredCloneJson(value);
  for (const path of paths) out = removeAt(out, path);
  return out;
}

function structuredCloneJson(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function removeAt(value: unknown, path: readonly PathStep[]): unknown {
  if (path.length === 0 || value === null || typeof value !== "object") return value;
  const [step, ...rest] = path;
  const container = value as Record<string, unknown> | unknown[];
  const keys: (string | number)[] = step === "*" ? (Array.isArray(container) ? container.map((_, i) => i) : Object.keys(container)) : [step as string | number];
  if (rest.length === 0) {
    if (Array.isArray(container)) {
      // an ignored array element becomes null so later indices keep their meaning
      for (const k of keys) if (typeof k === "number" && k < container.length) container[k] = null;
    } else for (const k of keys) delete (container as Record<string, unknown>)[String(k)];
    return container;
  }
  for (const k of keys) {
    const child = (container as Record<string, unknown>)[k as string];
    if (child !== undefined) (container as Record<string, unknown>)[k as string] = removeAt(child, rest);
  }
  return container;
}

export interface JsonDifference {
  path: string;
  expected: unknown;
  actual: unknown;
}

/** Every leaf where two JSON values differ (missing members count), in document order. */
export function jsonDifferences(expected: unknown, actual: unknown, at: (string | number)[] = []): JsonDifference[] {
  if (Object.is(expected, actual)) return [];
  const bothObjects =
    expected !== null && actual !== null && typeof expected === "object" && typeof actual === "object" && Array.isArray(expected) === Array.isArray(actual);
  if (!bothObjects) {
    if (typeof expected === "number" && typeof actual === "number" && expected === actual) return [];
    return [{ path: formatPath(at), expected, actual }];
  }
  const out: JsonDifference[] = [];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) out.push(...jsonDifferences(expected[i], actual[i], [...at, i]));
    return out;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].sort();
  for (const k of keys) out.push(...jsonDifferences(e[k], a[k], [...at, k]));
  return out;
}
