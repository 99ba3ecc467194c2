import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderJsonSchemas } from "#src/schema/json-schema.js";

const dir = new URL("../contracts/schema/", import.meta.url);

describe("contracts/schema", () => {
  const docs = renderJsonSchemas();
  it.each(Object.keys(docs))("%s is generated from the current zod schema", (name) => {
    const onDisk = readFileSync(new URL(name, dir), "utf8");
    expect(onDisk, `contracts/schema/${name} is stale: run \`npm run schemas\``).toBe(docs[name]);
  });
  it("holds no schema that is no longer generated", () => {
    const stale = readdirSync(dir).filter((n) => n.endsWith(".schema.json") && !(n in docs));
    expect(stale, "remove these or run `npm run schemas`").toEqual([]);
  });
});
