import { readFileSync } from "node:fs";
import type { CassetteEvent, CassetteHeader } from "#src/schema/cassette.js";
import type { CassetteValidators } from "./scan.js";

/**
 * Cassette validation without loading zod: the JSON Schema documents in contracts/schema/, which
 * are generated from the zod schemas (test/schemas.test.ts holds them equal), checked by a small
 * interpreter of the keywords they use. It only ever says "valid" or "ask zod": any keyword it does
 * not know, an object that zod would strip, or a value it rejects throws `NeedsSchemaCheck`, and the
 * caller runs the zod validators, which produce the message. A value it accepts is one the zod schema
 * accepts unchanged (the event schemas are strict, the header's objects pass unknown keys through).
 */
export class NeedsSchemaCheck extends Error {}

type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set(["$id", "$schema", "description", "title"]);

function load(name: string): Schema {
  return JSON.parse(readFileSync(new URL(`../../contracts/schema/${name}.schema.json`, import.meta.url), "utf8")) as Schema;
}

let schemas: { header: Schema; event: Schema } | undefined;

export const quickValidators: CassetteValidators = {
  header(json) {
    schemas ??= { header: load("cassette-header"), event: load("cassette-event") };
    if (!matches(schemas.header, json)) throw new NeedsSchemaCheck();
    return json as CassetteHeader;
  },
  event(json) {
    schemas ??= { header: load("cassette-header"), event: load("cassette-event") };
    if (!matches(schemas.event, json)) throw new NeedsSchemaCheck();
    return json as CassetteEvent;
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function typeMatches(type: unknown, v: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => typeMatches(t, v));
  switch (type) {
    case "object":
      return isObject(v);
    case "array":
      return Array.isArray(v);
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "integer":
      return typeof v === "number" && Number.isSafeInteger(v);
    case "boolean":
      return typeof v === "boolean";
    case "null":
      return v === null;
    default:
      throw new NeedsSchemaCheck();
  }
}

const patterns = new Map<string, RegExp>();

const keywords = new WeakMap<Schema, [string, unknown][]>();

/** A schema's keywords without its annotations, worked out once per schema object. */
function keywordsOf(schema: Schema): [string, unknown][] {
  let k = keywords.get(schema);
  if (!k) {
    k = Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key));
    keywords.set(schema, k);
  }
  return k;
}

const constProperties = new WeakMap<Schema, [string, unknown][]>();

/** Whether `v` has a property that `schema.properties` pins with a `const` to another value (so `v` fails that schema). */
function constMismatch(schema: Schema, v: unknown): boolean {
  if (!isObject(v)) return false;
  let pinned = constProperties.get(schema);
  if (!pinned) {
    const props = isObject(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
    pinned = Object.entries(props).flatMap(([k, p]) => (isObject(p) && "const" in p ? [[k, p.const] as [string, unknown]] : []));
    constProperties.set(schema, pinned);
  }
  return pinned.some(([k, c]) => Object.hasOwn(v, k) && v[k] !== undefined && v[k] !== c);
}

/** Whether `v` satisfies `schema`; throws NeedsSchemaCheck when the schema says something this checker does not know. */
export function matches(schema: Schema, v: unknown): boolean {
  for (const [key, value] of keywordsOf(schema)) {
    switch (key) {
      case "type":
        if (!typeMatches(value, v)) return false;
        break;
      case "const":
        if (v !== value) return false;
        break;
      case "enum":
        if (!(value as unknown[]).includes(v)) return false;
        break;
      case "minimum":
        if (typeof v === "number" && v < (value as number)) return false;
        break;
      case "maximum":
        if (typeof v === "number" && v > (value as number)) return false;
        break;
      case "pattern": {
        let re = patterns.get(value as string);
        if (!re) patterns.set(value as string, (re = new RegExp(value as string, "u")));
        if (typeof v === "string" && !re.test(v)) return false;
        break;
      }
      case "items":
        if (Array.isArray(v) && !v.every((item) => matches(value as Schema, item))) return false;
        break;
      case "anyOf":
        if (!(value as Schema[]).some((s) => matches(s, v))) return false;
        break;
      case "oneOf":
        // a branch whose `const` property (an event's `kind`) differs cannot match: it is not walked
        if ((value as Schema[]).filter((s) => !constMismatch(s, v) && matches(s, v)).length !== 1) return false;
        break;
      case "required":
        if (isObject(v) && !(value as string[]).every((k) => Object.hasOwn(v, k))) return false;
        break;
      case "propertyNames":
        if ((value as Schema).type !== "string" || Object.keys(value as Schema).length !== 1) throw new NeedsSchemaCheck();
        break;
      case "properties":
        if (isObject(v)) {
          for (const [k, s] of Object.entries(value as Record<string, Schema>)) {
            if (Object.hasOwn(v, k) && v[k] !== undefined && !matches(s, v[k])) return false;
          }
        }
        break;
      case "additionalProperties":
        if (isObject(v)) {
          const known = (schema.properties ?? {}) as Record<string, unknown>;
          for (const k of Object.keys(v)) {
            if (Object.hasOwn(known, k)) continue;
            if (value === false) return false;
            if (!matches(value as Schema, v[k])) return false;
          }
        }
        break;
      default:
        throw new NeedsSchemaCheck();
    }
  }
  // An object schema without additionalProperties is one zod strips: let zod build the value.
  if (schema.type === "object" && !("additionalProperties" in schema) && isObject(v)) {
    const known = (schema.properties ?? {}) as Record<string, unknown>;
    if (Object.keys(v).some((k) => !Object.hasOwn(known, k))) throw new NeedsSchemaCheck();
  }
  return true;
}
