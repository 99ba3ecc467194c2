/**
 * The end of an exhaustive switch: reached only when a case is missing, which the type-check
 * reports (`value` is not `never`). At run time it throws rather than fall through to a default.
 */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
