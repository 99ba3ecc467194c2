/** What a guard returns: a value, never a throw. `note` is the model-facing sentence. */
export type GuardResult = { ok: true; code?: undefined; note?: undefined } | { ok: false; code: string; note: string };

/** The result of a guard that lets the step through. */
export const PASS: GuardResult = { ok: true };
