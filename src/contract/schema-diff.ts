import type { Change, ChangeKind, Severity } from "./change.js";
import { ANNOTATION_KEYWORDS, deepEqual, isObject, pointer, stripAnnotations } from "./json.js";
import { canonicalJson } from "#src/wire/json/canonical.js";

/**
 * `input`: what the harness sends; a schema that accepts less breaks it.
 * `output`: what the harness reads; a schema that promises less (a property gone, no longer
 * always present) breaks it, and one that may return something new changes its behaviour.
 */
export type SchemaDirection = "input" | "output";

interface Context {
  tool: string;
  direction: SchemaDirection;
  out: Change[];
}

/** Structural, classified differences between two JSON Schemas of one tool. */
export function diffSchemas(options: {
  tool: string;
  direction: SchemaDirection;
  from: unknown;
  to: unknown;
  /** JSON pointer of the schema inside the tool entry, e.g. `/inputSchema`. */
  at: string;
}): Change[] {
  const ctx: Context = { tool: options.tool, direction: options.direction, out: [] };
  compareNode({ a: options.from, b: options.to, at: options.at, where: "", ctx });
  return ctx.out;
}

interface NodeArgs {
  a: unknown;
  b: unknown;
  /** JSON pointer of this node in the tool entry. */
  at: string;
  /** Instance location in words: `target`, `windows[].bounds`; empty at the root. */
  where: string;
  ctx: Context;
}

const HANDLED: ReadonlySet<string> = new Set([
  "type",
  "enum",
  "const",
  "default",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
]);

function compareNode(args: NodeArgs): void {
  const { a, b, at } = args;
  if (deepEqual(a, b)) return;
  if (!isObject(a) || !isObject(b)) {
    emit(args, "constraint_changed", { input: "behavioural", output: "behavioural" }, `schema changed`, a, b);
    return;
  }
  for (const key of ANNOTATION_KEYWORDS) {
    if (!deepEqual(a[key], b[key])) {
      emit({ ...args, at: `${at}${pointer(key)}` }, "description_changed", { input: "cosmetic", output: "cosmetic" }, `${key} changed`);
    }
  }
  const altsA = alternativesOf(a, at);
  const altsB = alternativesOf(b, at);
  if (altsA || altsB) {
    compareAlternatives({ ...args, a: altsA ?? [{ node: a, at }], b: altsB ?? [{ node: b, at }] });
    return;
  }
  compareTypes(args, a, b);
  compareEnum(args, a, b);
  if (!deepEqual(a.const, b.const)) {
    emit(args, "const_changed", { input: "breaking", output: "behavioural" }, `must now be ${json(b.const)} (was ${json(a.const)})`, a.const, b.const);
  }
  if (!deepEqual(a.default, b.default)) {
    emit(
      { ...args, at: `${at}/default` },
      "default_changed",
      { input: "behavioural", output: "cosmetic" },
      `default changed ${json(a.default)} → ${json(b.default)}`,
      a.default,
      b.default,
    );
  }
  compareProperties(args, a, b);
  compareAdditional(args, a, b);
  if (a.items !== undefined || b.items !== undefined) {
    compareNode({ ...args, a: a.items ?? {}, b: b.items ?? {}, at: `${at}/items`, where: `${args.where}[]` });
  }
  for (const key of ["anyOf", "oneOf", "allOf", "not"]) compareConstraint(args, key, a[key], b[key]);
  const others = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !HANDLED.has(k) && !ANNOTATION_KEYWORDS.has(k)));
  for (const key of others) {
    if (deepEqual(a[key], b[key])) continue;
    emit(
      { ...args, at: `${at}${pointer(key)}` },
      "constraint_changed",
      { input: "behavioural", output: "cosmetic" },
      `${key} changed ${json(a[key])} → ${json(b[key])}`,
      a[key],
      b[key],
    );
  }
}

function compareTypes(args: NodeArgs, a: Record<string, unknown>, b: Record<string, unknown>): void {
  const ta = typeSet(a.type);
  const tb = typeSet(b.type);
  if (!ta && !tb) return;
  if (!ta || !tb) {
    const added = !ta;
    emit(
      { ...args, at: `${args.at}/type` },
      added ? "type_removed" : "type_added",
      added ? { input: "breaking", output: "additive" } : { input: "additive", output: "behavioural" },
      added ? `must now be ${[...(tb ?? [])].join(" or ")}` : `may now be any type (was ${[...(ta ?? [])].join(" or ")})`,
      a.type,
      b.type,
    );
    return;
  }
  const widened = (t: string, set: Set<string>) => t === "integer" && set.has("number");
  for (const t of ta) {
    if (tb.has(t) || widened(t, tb)) continue;
    emit({ ...args, at: `${args.at}/type` }, "type_removed", { input: "breaking", output: "additive" }, `no longer accepts ${t}`, a.type, b.type);
  }
  for (const t of tb) {
    if (ta.has(t) || widened(t, ta)) continue;
    emit({ ...args, at: `${args.at}/type` }, "type_added", { input: "additive", output: "behavioural" }, `may now be ${t}`, a.type, b.type);
  }
}

function compareEnum(args: NodeArgs, a: Record<string, unknown>, b: Record<string, unknown>): void {
  if (!Array.isArray(a.enum) && !Array.isArray(b.enum)) return;
  if (!Array.isArray(a.enum) || !Array.isArray(b.enum)) {
    compareConstraint(args, "enum", a.enum, b.enum);
    return;
  }
  const inB = new Set(b.enum.map(canonicalJson));
  const inA = new Set(a.enum.map(canonicalJson));
  for (const v of a.enum) {
    if (inB.has(canonicalJson(v))) continue;
    emit({ ...args, at: `${args.at}/enum` }, "enum_value_removed", { input: "breaking", output: "additive" }, `value ${json(v)} was removed`, v, undefined);
  }
  for (const v of b.enum) {
    if (inA.has(canonicalJson(v))) continue;
    emit({ ...args, at: `${args.at}/enum` }, "enum_value_added", { input: "additive", output: "behavioural" }, `value ${json(v)} was added`, undefined, v);
  }
}

function compareProperties(args: NodeArgs, a: Record<string, unknown>, b: Record<string, unknown>): void {
  const pa = isObject(a.properties) ? a.properties : {};
  const pb = isObject(b.properties) ? b.properties : {};
  const ra = new Set(Array.isArray(a.required) ? a.required.map(String) : []);
  const rb = new Set(Array.isArray(b.required) ? b.required.map(String) : []);
  const dir = args.ctx.direction;
  for (const name of Object.keys(pa)) {
    const at = `${args.at}/properties${pointer(name)}`;
    const where = join(args.where, name);
    if (!(name in pb)) {
      emitAt(args, at, where, "property_removed", { input: "breaking", output: "breaking" }, `is gone`, pa[name], undefined);
      continue;
    }
    compareNode({ ...args, a: pa[name], b: pb[name], at, where });
  }
  for (const name of Object.keys(pb)) {
    if (name in pa) continue;
    const required = rb.has(name);
    emitAt(
      args,
      `${args.at}/properties${pointer(name)}`,
      join(args.where, name),
      "property_added",
      { input: required ? "breaking" : "additive", output: "additive" },
      required && dir === "input" ? `is new and required` : `is new`,
      undefined,
      pb[name],
    );
  }
  for (const name of rb) {
    if (ra.has(name) || (!(name in pa) && name in pb)) continue;
    emitAt(
      args,
      `${args.at}/required`,
      join(args.where, name),
      "required_added",
      { input: "breaking", output: "additive" },
      dir === "input" ? `is now required` : `is now always present`,
      false,
      true,
    );
  }
  for (const name of ra) {
    if (rb.has(name) || !(name in pb)) continue;
    emitAt(
      args,
      `${args.at}/required`,
      join(args.where, name),
      "required_removed",
      { input: "additive", output: "breaking" },
      dir === "input" ? `is no longer required` : `is no longer always present`,
      true,
      false,
    );
  }
}

function compareAdditional(args: NodeArgs, a: Record<string, unknown>, b: Record<string, unknown>): void {
  const xa = a.additionalProperties;
  const xb = b.additionalProperties;
  if (deepEqual(xa, xb)) return;
  const at = `${args.at}/additionalProperties`;
  if (isObject(xa) && isObject(xb)) {
    compareNode({ ...args, a: xa, b: xb, at, where: `${args.where}{*}` });
    return;
  }
  const open = (x: unknown) => x !== false;
  if (!isObject(xa) && !isObject(xb) && open(xa) === open(xb)) return;
  if (open(xa) && !open(xb)) {
    emit({ ...args, at }, "additional_properties_changed", { input: "breaking", output: "additive" }, `no longer accepts unlisted properties`, xa, xb);
  } else if (!open(xa) && open(xb)) {
    emit({ ...args, at }, "additional_properties_changed", { input: "additive", output: "cosmetic" }, `now accepts unlisted properties`, xa, xb);
  } else {
    emit({ ...args, at }, "additional_properties_changed", { input: "behavioural", output: "cosmetic" }, `unlisted-property rule changed`, xa, xb);
  }
}

/** A composition keyword whose branches do not name types: an extra rule on the same value. */
function compareConstraint(args: NodeArgs, key: string, a: unknown, b: unknown): void {
  if (deepEqual(stripAnnotations(a), stripAnnotations(b))) return;
  const at = `${args.at}${pointer(key)}`;
  if (a === undefined) {
    emit({ ...args, at }, "constraint_added", { input: "breaking", output: "additive" }, `gained a rule (${key})`, undefined, b);
  } else if (b === undefined) {
    emit({ ...args, at }, "constraint_removed", { input: "additive", output: "behavioural" }, `lost a rule (${key})`, a, undefined);
  } else {
    emit({ ...args, at }, "constraint_changed", { input: "behavioural", output: "behavioural" }, `rule ${key} changed`, a, b);
  }
}

interface Alternative {
  node: Record<string, unknown>;
  /** JSON pointer of the branch in the tool entry. */
  at: string;
}

/** Typed `anyOf`/`oneOf` branches, flattened, each merged with the keywords beside them. */
function alternativesOf(node: Record<string, unknown>, at: string): Alternative[] | undefined {
  const key = Array.isArray(node.anyOf) ? "anyOf" : Array.isArray(node.oneOf) ? "oneOf" : undefined;
  if (!key) return undefined;
  const branches = node[key] as unknown[];
  if (!branches.filter(isObject).some(isTyped)) return undefined;
  const { [key]: _dropped, ...base } = node;
  return branches.flatMap((branch, i) => {
    if (!isObject(branch)) return [];
    const merged = merge(base, branch);
    const branchAt = `${at}/${key}/${i}`;
    return alternativesOf(merged, branchAt) ?? [{ node: merged, at: branchAt }];
  });
}

function isTyped(node: Record<string, unknown>): boolean {
  if ("type" in node || "const" in node || "enum" in node) return true;
  const inner = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : [];
  return inner.filter(isObject).some(isTyped);
}

function merge(base: Record<string, unknown>, branch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base, ...branch };
  if (isObject(base.properties) && isObject(branch.properties)) out.properties = { ...base.properties, ...branch.properties };
  if (Array.isArray(base.required) && Array.isArray(branch.required)) out.required = [...new Set([...base.required, ...branch.required])];
  return out;
}

function compareAlternatives(args: Omit<NodeArgs, "a" | "b"> & { a: Alternative[]; b: Alternative[] }): void {
  const restA = [...args.a];
  const restB = [...args.b];
  const pairs: Array<[Alternative, Alternative]> = [];
  const take = (same: (x: Record<string, unknown>, y: Record<string, unknown>) => boolean) => {
    for (const x of [...restA]) {
      const y = restB.find((k) => same(x.node, k.node));
      if (y === undefined) continue;
      pairs.push([x, y]);
      restA.splice(restA.indexOf(x), 1);
      restB.splice(restB.indexOf(y), 1);
    }
  };
  take((x, y) => deepEqual(stripAnnotations(x), stripAnnotations(y)));
  take((x, y) => signature(x) === signature(y));
  for (const [x, y] of pairs) compareNode({ ...args, a: x.node, b: y.node, at: y.at });
  for (const x of restA) {
    emit({ ...args, at: x.at }, "alternative_removed", { input: "breaking", output: "additive" }, `no longer accepts ${summary(x.node)}`, x.node, undefined);
  }
  for (const y of restB) {
    emit({ ...args, at: y.at }, "alternative_added", { input: "additive", output: "behavioural" }, `may now be ${summary(y.node)}`, undefined, y.node);
  }
}

/** What pairs two alternatives that changed: their types and any discriminating `const`. */
function signature(node: Record<string, unknown>): string {
  const consts = isObject(node.properties)
    ? Object.entries(node.properties)
        .filter(([, s]) => isObject(s) && "const" in s)
        .map(([k, s]) => `${k}=${json((s as Record<string, unknown>).const)}`)
    : [];
  return canonicalJson({ type: [...(typeSet(node.type) ?? [])].sort(), const: node.const, consts });
}

function summary(node: Record<string, unknown>): string {
  if ("const" in node) return json(node.const);
  const consts = isObject(node.properties)
    ? Object.entries(node.properties)
        .filter(([, s]) => isObject(s) && "const" in s)
        .map(([k, s]) => `${k}: ${json((s as Record<string, unknown>).const)}`)
    : [];
  if (consts.length > 0) return `{${consts.join(", ")}}`;
  const types = typeSet(node.type);
  return types ? [...types].join(" or ") : "one of its former shapes";
}

function typeSet(type: unknown): Set<string> | undefined {
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.map(String));
  return undefined;
}

type BySide = Record<SchemaDirection, Severity>;

function emit(args: NodeArgs | Omit<NodeArgs, "a" | "b">, kind: ChangeKind, severity: BySide, what: string, from?: unknown, to?: unknown): void {
  emitAt(args, args.at, args.where, kind, severity, what, from, to);
}

function emitAt(args: { ctx: Context }, at: string, where: string, kind: ChangeKind, severity: BySide, what: string, from?: unknown, to?: unknown): void {
  const { ctx } = args;
  const subject = where ? `${ctx.direction} property "${where}"` : `${ctx.direction} schema`;
  const change: Change = { severity: severity[ctx.direction], kind, tool: ctx.tool, path: at, message: `${ctx.tool}: ${subject} ${what}` };
  if (from !== undefined) change.from = from;
  if (to !== undefined) change.to = to;
  ctx.out.push(change);
}

function join(where: string, name: string): string {
  return where ? `${where}.${name}` : name;
}

function json(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}
