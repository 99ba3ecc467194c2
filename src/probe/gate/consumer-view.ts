import { isObject } from "#src/contract/json.js";

/**
 * The part of an outputSchema a harness can lean on, given what it already received: the same
 * schema without the promise that declared properties are always present (a recording made before
 * a property was promised lacks it and is stale, not broken) and with `oneOf` read as `anyOf`
 * (without those promises, branches a value used to tell apart may overlap). Required names that
 * the schema does not declare as properties stay: they tell a refusal shape from a result.
 */
export function consumerView(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(consumerView);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  const declared = isObject(schema.properties) ? schema.properties : {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "required" && Array.isArray(value)) {
      const kept = value.filter((name) => !Object.hasOwn(declared, String(name)));
      if (kept.length) out.required = kept;
    } else if (key === "properties" || key === "$defs" || key === "definitions" || key === "patternProperties") {
      out[key] = isObject(value) ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, consumerView(sub)])) : value;
    } else if (key === "oneOf" || key === "anyOf" || key === "allOf" || key === "prefixItems") {
      out[key === "oneOf" ? "anyOf" : key] = Array.isArray(value) ? value.map(consumerView) : value;
    } else if (key === "items" || key === "additionalProperties" || key === "not" || key === "if" || key === "then" || key === "else") {
      out[key] = consumerView(value);
    } else out[key] = value;
  }
  // A schema with both anyOf and oneOf: keep both rules, as anyOf is taken above.
  if (Array.isArray(schema.oneOf) && Array.isArray(schema.anyOf)) {
    out.anyOf = schema.anyOf.map(consumerView);
    out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { anyOf: schema.oneOf.map(consumerView) }];
  }
  return out;
}
