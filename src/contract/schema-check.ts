import { isObject } from "./json.js";
import { canonicalJson } from "#src/wire/json/canonical.js";

/**
 * A direct (interpreting) JSON Schema check for the keywords cua-driver's tool schemas use.
 * Compiling each schema to code (ajv) costs milliseconds per schema, far more than checking a
 * recording's few calls; interpreting costs nothing up front. Schemas using any other keyword are
 * left to a full validator (`supportsSchema` says which).
 */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  // Annotations: no effect on validity.
  "description",
  "title",
  "default",
  "examples",
  "format",
  "$schema",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

export interface SchemaError {
  /** JSON pointer of the offending value (`""` is the root). */
  pointer: string;
  message: string;
}

/** Whether every keyword in the schema (at any depth) is one this checker knows. */
export function supportsSchema(schema: unknown): boolean {
  if (typeof schema === "boolean") return true;
  if (!isObject(schema)) return false;
  for (const [key, value] of Object.entries(schema)) {
    if (!SUPPORTED_KEYWORDS.has(key)) return false;
    if (key === "properties" && (!isObject(value) || !Object.values(value).every(supportsSchema))) return false;
    if ((key === "items" || key === "additionalProperties") && typeof value !== "boolean" && !supportsSchema(value)) return false;
    if ((key === "anyOf" || key === "oneOf") && (!Array.isArray(value) || !value.every(supportsSchema))) return false;
  }
  return true;
}

/** Every error of `value` against `schema` (empty when valid). */
export function checkSchema(schema: unknown, value: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  // compiled once per check: a schema names the same patterns again and again
  visit(schema, value, "", errors, new Map());
  return errors;
}

function visit(schema: unknown, value: unknown, at: string, errors: SchemaError[], patterns: Map<string, RegExp>): void {
  if (schema === true || schema === undefined) return;
  if (schema === false) {
    errors.push({ pointer: at, message: "boolean schema is false" });
    return;
  }
  if (!isObject(schema)) return;
  const err = (message: string, pointer = at) => errors.push({ pointer, message });
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type)];
    if (!types.some((t) => hasType(value, t))) {
      err(`must be ${types.join(",")}`);
      return;
    }
  }
  if (schema.const !== undefined && (value === undefined || canonicalJson(schema.const) !== canonicalJson(value))) err("must be equal to constant");
  if (Array.isArray(schema.enum) && !schema.enum.some((v) => value !== undefined && canonicalJson(v) === canonicalJson(value))) {
    err(`must be equal to one of the allowed values (${schema.enum.map((v) => JSON.stringify(v)).join(", ")})`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) err(`must be >= ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) err(`must be <= ${schema.maximum}`);
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (typeof schema.minLength === "number" && length < schema.minLength) err(`must NOT have fewer than ${schema.minLength} characters`);
    if (typeof schema.maxLength === "number" && length > schema.maxLength) err(`must NOT have more than ${schema.maxLength} characters`);
    if (typeof schema.pattern === "string") {
      let re = patterns.get(schema.pattern);
      if (!re) patterns.set(schema.pattern, (re = new RegExp(schema.pattern, "u")));
      if (!re.test(value)) err(`must match pattern "${schema.pattern}"`);
    }
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) err(`must NOT have fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) err(`must NOT have more than ${schema.maxItems} items`);
    if (schema.items !== undefined) for (const [i, item] of value.entries()) visit(schema.items, item, `${at}/${i}`, errors, patterns);
  }
  if (isObject(value)) visitObject(schema, value, at, errors, patterns);
  if (Array.isArray(schema.anyOf)) alternatives(schema.anyOf, value, at, errors, "anyOf", patterns);
  if (Array.isArray(schema.oneOf)) alternatives(schema.oneOf, value, at, errors, "oneOf", patterns);
}

function visitObject(schema: Record<string, unknown>, value: Record<string, unknown>, at: string, errors: SchemaError[], patterns: Map<string, RegExp>): void {
  const props = isObject(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) {
      if (!Object.hasOwn(value, String(name))) errors.push({ pointer: at, message: `must have required property '${String(name)}'` });
    }
  }
  for (const [name, sub] of Object.entries(value)) {
    const child = `${at}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (Object.hasOwn(props, name)) visit(props[name], sub, child, errors, patterns);
    else if (schema.additionalProperties === false) errors.push({ pointer: at, message: `must NOT have additional properties ("${name}")` });
    else if (isObject(schema.additionalProperties)) visit(schema.additionalProperties, sub, child, errors, patterns);
  }
}

function alternatives(branches: unknown[], value: unknown, at: string, errors: SchemaError[], keyword: "anyOf" | "oneOf", patterns: Map<string, RegExp>): void {
  const results = branches.map((branch) => checkAt(branch, value, at, patterns));
  const passing = results.filter((r) => r.length === 0).length;
  if (keyword === "anyOf" ? passing >= 1 : passing === 1) return;
  if (passing === 0) {
    // The closest branch's errors say most about what is wrong.
    const closest = results.reduce((best, r) => (r.length < best.length ? r : best));
    errors.push(...closest);
  }
  errors.push({ pointer: at, message: keyword === "anyOf" ? "must match a schema in anyOf" : "must match exactly one schema in oneOf" });
}

function checkAt(schema: unknown, value: unknown, at: string, patterns: Map<string, RegExp>): SchemaError[] {
  const errors: SchemaError[] = [];
  visit(schema, value, at, errors, patterns);
  return errors;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "string":
      return typeof value === "string";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return false;
  }
}
