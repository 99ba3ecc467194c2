import { UserError } from "#src/errors.js";
import { DriverContractSchema, type DriverContract } from "#src/schema/driver-contract.js";
import { rangeProblem } from "#src/util/versions.js";
import { jsonPathLine } from "#src/util/json-error-line.js";
import { parseWith, readJsonDocument } from "#src/util/read-json.js";

const FIX = "See docs/contracts.md, or write a starting contract with `cua-contract contract init --from SNAPSHOT`.";

/** Reads and validates a driver contract file (exit 2 naming file and field when it is not one). */
export async function readContract(file: string): Promise<DriverContract> {
  const { value, text } = await readJsonDocument({ file, code: "BAD_CONTRACT", what: "driver contract", fix: FIX });
  const contract = parseWith({ schema: DriverContractSchema, value, text, file, code: "BAD_CONTRACT", what: "driver contract", fix: FIX });
  const problem = rangeProblem(contract.driver.versions);
  if (problem) {
    const line = jsonPathLine(text, ["driver", "versions"]);
    throw new UserError(`driver contract is invalid: ${problem}`, {
      code: "BAD_CONTRACT",
      file,
      ...(line ? { line } : {}),
      field: "driver.versions",
      fix: "Write a version (0.21.0), a series (0.21.x) or comparators (>=0.21.0 <0.23.0), joined by || for alternatives.",
    });
  }
  return contract;
}
