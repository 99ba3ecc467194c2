#!/usr/bin/env node
// Regenerates contracts/schema/*.schema.json from the zod schemas (run `npm run schemas`).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { renderJsonSchemas } from "../dist/schema/json-schema.js";

const dir = new URL("../contracts/schema/", import.meta.url);
mkdirSync(dir, { recursive: true });
const docs = renderJsonSchemas();
for (const name of readdirSync(dir)) if (name.endsWith(".schema.json") && !(name in docs)) rmSync(new URL(name, dir));
for (const [name, text] of Object.entries(docs)) writeFileSync(new URL(name, dir), text);
console.log(`wrote ${Object.keys(docs).length} schemas to contracts/schema/`);
