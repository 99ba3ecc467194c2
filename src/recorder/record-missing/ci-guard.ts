import { UserError } from "#src/errors.js";

/** Whether this process runs in CI as CI services say it (`CI=true`, or `1`). */
export const inCi = (env: Record<string, string | undefined>): boolean => env.CI === "true" || env.CI === "1";

/**
 * record-missing reaches a live driver and rewrites a cassette; a CI run is meant to replay the
 * committed one, so a stray `--record-missing` (or CUA_CONTRACT_MODE=record-missing) there is refused.
 */
export function refuseInCi(options: { env: Record<string, string | undefined>; allowInCi: boolean; flag?: string; allow?: string }): void {
  if (options.allowInCi || !inCi(options.env)) return;
  throw new UserError(
    `record-missing is refused when CI=${options.env.CI}: it sends the harness's calls to a live driver and rewrites the cassette, and a CI run should replay the committed cassette`,
    {
      code: "USAGE",
      field: options.flag ?? "--record-missing",
      fix: `Grow the cassette on a desktop and commit it (docs/replay.md), or ${options.allow ?? "pass --allow-in-ci when this job is meant to grow it"}.`,
    },
  );
}
