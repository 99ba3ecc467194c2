import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toolsList } from "../../test/helpers/probe-snapshots.js";
import { checkSchema, supportsSchema } from "./schema-check.js";

const versions = ["0.20.0", "0.21.0", "0.24.0", "0.28.2"];
const schemas = versions.flatMap((v) =>
  toolsList(v).tools.flatMap((t) => [
    { label: `${v} ${t.name} input`, schema: t.inputSchema! },
    ...(t.outputSchema ? [{ label: `${v} ${t.name} output`, schema: t.outputSchema }] : []),
  ]),
);

describe("checkSchema (interpreting validator) agrees with ajv on cua-driver's own schemas", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

  it("covers every tool schema of 0.20.0 – 0.28.2", () => {
    expect(schemas.filter((s) => !supportsSchema(s.schema)).map((s) => s.label)).toEqual([]);
  });

  it("gives the same verdict as ajv for generated values, per schema", () => {
    // Values shaped like tool arguments: objects over the schema's own property names, with mixed values.
    const leaf = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -3, max: 5000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom("left", "right", "background", "window", "desktop", "primary", "", "s00000001:3"),
      fc.string(),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("kind", "pid", "window_id", "x", "y", "display_id", "windows"), tie("node"), { maxKeys: 4 }),
      ),
    })).node;
    for (const { label, schema } of schemas.filter((_, i) => i % 3 === 0)) {
      const props = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
      const args = props.length ? fc.dictionary(fc.constantFrom(...props), value, { maxKeys: 5 }) : value;
      const validate = ajv.compile(schema);
      fc.assert(
        fc.property(args, (v) => {
          const mine = checkSchema(schema, v).length === 0;
          if (mine !== validate(v)) throw new Error(`${label}: ajv says ${!mine} for ${JSON.stringify(v)}`);
        }),
        { numRuns: 60, seed: 42 },
      );
    }
  });

  it("names the path and reason the way the gate reports them", () => {
    const click = toolsList("0.28.2").tools.find((t) => t.name === "click")!.inputSchema!;
    expect(checkSchema(click, { target: null })).toEqual([
      { pointer: "/target", message: "must be object" },
      { pointer: "/target", message: "must match exactly one schema in oneOf" },
    ]);
    expect(checkSchema(click, { pid: 1, bogus: true })).toEqual([{ pointer: "", message: 'must NOT have additional properties ("bogus")' }]);
    expect(checkSchema({ type: "object", required: ["a"] }, {})).toEqual([{ pointer: "", message: "must have required property 'a'" }]);
    expect(supportsSchema({ type: "object", allOf: [] })).toBe(false);
  });
});
