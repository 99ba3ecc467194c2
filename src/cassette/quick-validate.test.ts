import fc from "fast-check";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CassetteEventSchema, CassetteHeaderSchema } from "#src/schema/cassette.js";
import { NeedsSchemaCheck, quickValidators } from "./quick-validate.js";

const lines = ["recordings/gtk3-demo-cli", "recordings/gtk3-demo-mcp"].flatMap((d) =>
  readFileSync(`${d}/cassette.jsonl`, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>),
);
const headers = lines.filter((l) => l.format === "cua-cassette");
const events = lines.filter((l) => l.format === undefined);

function quick(kind: "header" | "event", json: unknown): unknown | "ask zod" {
  try {
    return kind === "header" ? quickValidators.header(json, "f") : quickValidators.event(json, "f", 2);
  } catch (error) {
    if (error instanceof NeedsSchemaCheck) return "ask zod";
    throw error;
  }
}

// A real event or header with one change somewhere in it: a key dropped, a value replaced, a key added.
function mutate(value: unknown, path: readonly number[], replacement: unknown, op: number): unknown {
  if (typeof value !== "object" || value === null) return replacement;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  if (keys.length === 0 || path.length === 0) {
    if (op === 0 && !Array.isArray(copy)) (copy as Record<string, unknown>).extra = replacement;
    return op === 1 ? replacement : copy;
  }
  const key = keys[path[0]! % keys.length]!;
  if (path.length === 1 && op === 2 && !Array.isArray(copy)) delete (copy as Record<string, unknown>)[key];
  else (copy as Record<string, unknown>)[key] = mutate((copy as Record<string, unknown>)[key], path.slice(1), replacement, op);
  return copy;
}

describe("quick cassette validation", () => {
  it("accepts every header and event of the bundled recordings as they are", () => {
    expect(events.length).toBeGreaterThan(50);
    for (const h of headers) expect(quick("header", h)).toBe(h);
    for (const e of events) expect(quick("event", e)).toBe(e);
  });

  it("accepts only what the zod schema accepts, unchanged (property test over mutated real events)", () => {
    const json = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
      fc.constantFrom("cli", "mcp", `frames/${"a".repeat(64)}.png`, -1, 1.5, 0),
    );
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.array(fc.nat(), { maxLength: 4 }), json, fc.nat(3), (isHeader, pick, path, replacement, op) => {
        const kind = isHeader ? "header" : "event";
        const base = isHeader ? headers[pick % headers.length]! : events[pick % events.length]!;
        const candidate = mutate(base, path, replacement, op);
        const verdict = quick(kind, candidate);
        const zod = (isHeader ? CassetteHeaderSchema : CassetteEventSchema).safeParse(candidate);
        if (verdict === "ask zod") return void rejected++;
        accepted++;
        expect(zod.success).toBe(true);
        expect(zod.data).toEqual(candidate);
      }),
      { numRuns: 3000, seed: 14 },
    );
    // both answers occur, so the property says something
    expect(accepted).toBeGreaterThan(50);
    expect(rejected).toBeGreaterThan(100);
  });
});
