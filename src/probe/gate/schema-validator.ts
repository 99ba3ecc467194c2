import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { ToolEntry } from "../../schema/probe-snapshot.js";

export interface SchemaProblem {
  /** JSON path of the offending value: `$.target`, `$.windows[0].bounds`. */
  path: string;
  reason: string;
}

/**
 * Validates values against a candidate's tool schemas, compiling each schema once. Formats
 * (`uint32`, `double`…) are annotations here: cua-driver's schemars output uses non-standard ones.
 */
export function createToolValidator(tools: readonly ToolEntry[]) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const byName = new Map(tools.map((t) => [t.name, t]));
  const cache = new Map<string, ValidateFunction | null>();
  const compiled = (tool: string, which: "inputSchema" | "outputSchema"): ValidateFunction | null | undefined => {
    const key = `${which}:${tool}`;
    if (cache.has(key)) return cache.get(key);
    const schema = byName.get(tool)?.[which];
    let fn: ValidateFunction | null = null;
    if (schema) {
      try {
        fn = ajv.compile(schema);
      } catch {
        fn = null;
      }
    }
    cache.set(key, fn);
    return fn;
  };
  return {
    has: (tool: string) => byName.has(tool),
    hasOutputSchema: (tool: string) => Boolean(byName.get(tool)?.outputSchema),
    /** Problems with a value, or undefined when there is no schema to check it against. */
    check(tool: string, which: "inputSchema" | "outputSchema", value: unknown): SchemaProblem[] | undefined {
      const fn = compiled(tool, which);
      if (!fn) return undefined;
      if (fn(value)) return [];
      return (fn.errors ?? []).map((e) => ({ path: toJsonPath(e.instancePath), reason: `${e.message ?? "is invalid"}${detail(e.params)}` }));
    },
  };
}

export type ToolValidator = ReturnType<typeof createToolValidator>;

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
