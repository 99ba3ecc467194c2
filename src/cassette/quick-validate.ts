import { readFileSync } from "node:fs";
import type { CassetteEvent, CassetteHeader } from "#src/schema/cassette.js";
import type { CassetteValidators } from "./scan.js";

/**
 * Cassette validation without loading zod: the JSON Schema documents in contracts/schema/, which
 * are generated from the zod schemas (test/schemas.test.ts holds them equal), checked by functions
 * compiled once from the keywords they use. It only ever says "valid" or "ask zod": any keyword it does
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

export const quickValidators: CassetteValidators = {
  header(json) {
    if (!compiled().header(json)) throw new NeedsSchemaCheck();
    return json as CassetteHeader;
  },
  event(json) {
    if (!compiled().event(json)) throw new NeedsSchemaCheck();
    return json as CassetteEvent;
  },
};

let checkers: { header: Check; event: Check } | undefined;

function compiled(): { header: Check; event: Check } {
  checkers ??= { header: compile(load("cassette-header")), event: compile(load("cassette-event")) };
  return checkers;
}

/** Whether a value satisfies a schema; throws NeedsSchemaCheck where the schema says something this checker does not know. */
type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const needsSchemaCheck: Check = () => {
  throw new NeedsSchemaCheck();
};

function typeCheck(type: unknown): Check {
  if (Array.isArray(type)) {
    const each = type.map(typeCheck);
    return (v) => each.some((c) => c(v));
  }
  switch (type) {
    case "object":
      return isObject;
    case "array":
      return Array.isArray;
    case "string":
      return (v) => typeof v === "string";
    case "number":
      return (v) => typeof v === "number" && Number.isFinite(v);
    case "integer":
      return (v) => typeof v === "number" && Number.isSafeInteger(v);
    case "boolean":
      return (v) => typeof v === "boolean";
    case "null":
      return (v) => v === null;
    default:
      return needsSchemaCheck;
  }
}

/** The properties a schema pins with a `const` (an event's `kind`): a value holding another one fails that schema. */
function constMismatch(schema: Schema): (v: unknown) => boolean {
  const props = isObject(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
  const pinned = Object.entries(props).flatMap(([k, p]) => (isObject(p) && "const" in p ? [[k, p.const] as [string, unknown]] : []));
  if (pinned.length === 0) return () => false;
  return (v) => isObject(v) && pinned.some(([k, c]) => Object.hasOwn(v, k) && v[k] !== undefined && v[k] !== c);
}

/**
 * A schema turned into a function, once: its keywords (annotations aside) are checked in the order
 * they are written, the first that fails answers `false`, and one this checker does not know throws
 * `NeedsSchemaCheck` when it is reached, as walking the schema keyword by keyword would.
 */
export function compile(schema: Schema): Check {
  const checks: Check[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    checks.push(keywordCheck(schema, key, value));
  }
  // An object schema without additionalProperties is one zod strips: let zod build the value.
  if (schema.type === "object" && !("additionalProperties" in schema)) {
    const known = new Set(Object.keys((schema.properties ?? {}) as Record<string, unknown>));
    checks.push((v) => {
      if (isObject(v)) for (const k of Object.keys(v)) if (!known.has(k)) throw new NeedsSchemaCheck();
      return true;
    });
  }
  if (checks.length === 1) return checks[0]!;
  return (v) => {
    for (const c of checks) if (!c(v)) return false;
    return true;
  };
}

function keywordCheck(schema: Schema, key: string, value: unknown): Check {
  switch (key) {
    case "type":
      return typeCheck(value);
    case "const":
      return (v) => v === value;
    case "enum":
      return (v) => (value as unknown[]).includes(v);
    case "minimum":
      return (v) => !(typeof v === "number" && v < (value as number));
    case "maximum":
      return (v) => !(typeof v === "number" && v > (value as number));
    case "pattern": {
      const re = new RegExp(value as string, "u");
      return (v) => !(typeof v === "string" && !re.test(v));
    }
    case "items": {
      const item = compile(value as Schema);
      return (v) => !(Array.isArray(v) && !v.every((x) => item(x)));
    }
    case "anyOf": {
      const each = (value as Schema[]).map(compile);
      return (v) => each.some((c) => c(v));
    }
    case "oneOf": {
      // a branch whose `const` property (an event's `kind`) differs cannot match: it is not walked
      const branches = (value as Schema[]).map((s) => ({ mismatch: constMismatch(s), check: compile(s) }));
      return (v) => {
        let n = 0;
        for (const b of branches) if (!b.mismatch(v) && b.check(v)) n++;
        return n === 1;
      };
    }
    case "required": {
      const keys = value as string[];
      return (v) => !(isObject(v) && !keys.every((k) => Object.hasOwn(v, k)));
    }
    case "propertyNames":
      return (value as Schema).type !== "string" || Object.keys(value as Schema).length !== 1 ? needsSchemaCheck : () => true;
    case "properties": {
      const props = Object.entries(value as Record<string, Schema>).map(([k, s]) => [k, compile(s)] as const);
      return (v) => {
        if (isObject(v)) for (const [k, c] of props) if (Object.hasOwn(v, k) && v[k] !== undefined && !c(v[k])) return false;
        return true;
      };
    }
    case "additionalProperties": {
      const known = new Set(Object.keys((schema.properties ?? {}) as Record<string, unknown>));
      const rest = value === false ? undefined : compile(value as Schema);
      return (v) => {
        if (isObject(v)) {
          for (const k of Object.keys(v)) {
            if (known.has(k)) continue;
            if (!rest?.(v[k])) return false;
          }
        }
        return true;
      };
    }
    default:
      return needsSchemaCheck;
  }
}

/** Whether `v` satisfies `schema`; throws NeedsSchemaCheck when the schema says something this checker does not know. */
export function matches(schema: Schema, v: unknown): boolean {
  return compile(schema)(v);
}
