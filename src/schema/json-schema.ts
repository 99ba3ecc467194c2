import { z } from "zod";
import { schemaRegistry } from "./registry.js";

/** The JSON Schema documents for contracts/schema/, keyed by file name, as pretty JSON text. */
export function renderJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, schema] of Object.entries(schemaRegistry)) {
    const doc = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any", io: "input" });
    out[`${name}.schema.json`] = `${JSON.stringify({ $id: `cua-contract/${name}`, ...doc }, null, 2)}\n`;
  }
  return out;
}
