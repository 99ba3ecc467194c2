import { NeedsSchemaCheck, quickValidators } from "./quick-validate.js";
import { schemaValidators } from "./reader.js";
import type { CassetteValidators } from "./scan.js";

/**
 * The cassette's validators, fast: each line is checked against the generated JSON Schema first,
 * and only a line it cannot vouch for goes to zod (which gives the message). What passes is what
 * zod accepts unchanged, so a writer that copies lines byte for byte (prune, merge) may use it.
 */
export const fastValidators: CassetteValidators = {
  header(json, file) {
    try {
      return quickValidators.header(json, file);
    } catch (error) {
      if (error instanceof NeedsSchemaCheck) return schemaValidators.header(json, file);
      throw error;
    }
  },
  event(json, file, line) {
    try {
      return quickValidators.event(json, file, line);
    } catch (error) {
      if (error instanceof NeedsSchemaCheck) return schemaValidators.event(json, file, line);
      throw error;
    }
  },
};
