/** JSON helpers for comparing schemas: equality by canonical text, and annotation-free copies. */
import { canonicalJson } from "#src/wire/json/canonical.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// `undefined` (absent) equals nothing else: canonicalJson writes it as `null`
export function deepEqual(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b));
}

/** Keywords that explain a schema without changing what it accepts. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set(["description", "title", "examples", "$comment", "format", "deprecated"]);

/** A copy of a schema without annotation keywords (property names are kept). */
export function stripAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripAnnotations);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATION_KEYWORDS.has(key)) continue;
    if (key === "properties" && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, stripAnnotations(sub)]));
    } else out[key] = stripAnnotations(value);
  }
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One JSON pointer segment. */
export function pointer(...segments: Array<string | number>): string {
  return segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
