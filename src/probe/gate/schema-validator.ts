import { Ajv2020 } from "ajv/dist/2020.js";
import type { ToolEntry } from "#src/schema/probe-snapshot.js";
import { checkSchema, supportsSchema, type SchemaError } from "#src/contract/schema-check.js";
import { consumerView } from "./consumer-view.js";

export interface SchemaProblem {
  /** JSON path of the offending value: `$.target`, `$.windows[0].bounds`. */
  path: string;
  reason: string;
}

type Check = (value: unknown) => SchemaError[];

/**
 * Validates values against a candidate's tool schemas. Schemas in the keyword subset cua-driver
 * uses are interpreted directly (no compile step); any other schema is compiled once with ajv.
 * Formats (`uint32`, `double`…) are annotations here: schemars emits non-standard ones.
 */
export function createToolValidator(tools: readonly ToolEntry[], shared: ValidatorMemo = createValidatorMemo()) {
  let ajv: Ajv2020 | undefined;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const cache = new Map<string, Check | null>();
  const bySource = shared.checks;
  const build = (schema: Record<string, unknown>): Check | null => {
    if (supportsSchema(schema)) return (value) => checkSchema(schema, value);
    ajv ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false, code: { optimize: false } });
    try {
      const fn = ajv.compile(schema);
      return (value) =>
        fn(value) ? [] : (fn.errors ?? []).map((e) => ({ pointer: e.instancePath, message: `${e.message ?? "is invalid"}${detail(e.params)}` }));
    } catch {
      return null;
    }
  };
  const compiled = (tool: string, which: "inputSchema" | "outputSchema", view: SchemaView): Check | null | undefined => {
    const key = `${view}:${which}:${tool}`;
    if (cache.has(key)) return cache.get(key);
    const raw = byName.get(tool)?.[which];
    const schema = raw && view === "consumer" ? (consumerView(raw) as Record<string, unknown>) : raw;
    let fn: Check | null = null;
    if (schema) {
      // Many tools share one schema (20 action tools share the ActionResult outputSchema).
      const source = JSON.stringify(schema);
      if (!bySource.has(source)) bySource.set(source, remembered(build(schema)));
      fn = bySource.get(source)!;
    }
    cache.set(key, fn);
    return fn;
  };
  return {
    has: (tool: string) => byName.has(tool),
    hasOutputSchema: (tool: string) => Boolean(byName.get(tool)?.outputSchema),
    /**
     * Problems with a value, or undefined when there is no schema to check it against. The
     * `consumer` view asks only whether the schema still allows what the value holds (see consumerView).
     */
    check(tool: string, which: "inputSchema" | "outputSchema", value: unknown, view: SchemaView = "strict"): SchemaProblem[] | undefined {
      const fn = compiled(tool, which, view);
      if (!fn) return undefined;
      return fn(value).map((e) => ({ path: toJsonPath(e.pointer), reason: e.message }));
    },
  };
}

export type ToolValidator = ReturnType<typeof createToolValidator>;

/**
 * What validators share: one check per distinct schema text, and each check's answer per value
 * (the same recorded value against the same schema, in another version, gives the same answer).
 */
export interface ValidatorMemo {
  checks: Map<string, Check | null>;
}

export function createValidatorMemo(): ValidatorMemo {
  return { checks: new Map() };
}

function remembered(check: Check | null): Check | null {
  if (!check) return null;
  // held weakly: a value read again from a large cassette is not kept alive by its answer
  const answers = new WeakMap<object, SchemaError[]>();
  const primitives = new Map<unknown, SchemaError[]>();
  return (value) => {
    const memo = typeof value === "object" && value !== null ? answers : primitives;
    let got = memo.get(value as object);
    if (!got) memo.set(value as object, (got = check(value)));
    return got;
  };
}

/** `strict`: the schema as written; `consumer`: what a harness that received the value can lean on. */
export type SchemaView = "strict" | "consumer";

function detail(params: Record<string, unknown>): string {
  if (typeof params.additionalProperty === "string") return ` ("${params.additionalProperty}")`;
  if (Array.isArray(params.allowedValues)) return ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")})`;
  return "";
}

function toJsonPath(pointer: string): string {
  if (!pointer) return "$";
  return `$${pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`))
    .join("")}`;
}
