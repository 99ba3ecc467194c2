import { UserError } from "#src/errors.js";

/**
 * `replay` (default): answer from the cassette, never a real driver. `record`: run against the
 * live driver and write the cassette afresh. `record-missing`: answer from the cassette and add
 * what it lacks from the live driver. `passthrough`: the live driver, nothing written.
 */
export const CASSETTE_MODES = ["replay", "record", "record-missing", "passthrough"] as const;
/** A cassette mode: replay, record, record-missing or passthrough. */
export type CassetteMode = (typeof CASSETTE_MODES)[number];

/** The mode from code, else `CUA_CONTRACT_MODE`, else `replay`; an unknown one names where it came from. */
export function resolveMode(explicit: string | undefined, env: Record<string, string | undefined>): CassetteMode {
  const value = explicit ?? env.CUA_CONTRACT_MODE ?? "replay";
  if ((CASSETTE_MODES as readonly string[]).includes(value)) return value as CassetteMode;
  throw new UserError(`unknown cassette mode ${JSON.stringify(value)}`, {
    code: "USAGE",
    field: explicit !== undefined ? "mode" : "CUA_CONTRACT_MODE",
    fix: `Use one of ${CASSETTE_MODES.join(", ")}.`,
  });
}
