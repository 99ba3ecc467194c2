import { VOLATILE_ARG_KEYS } from "#src/driver/catalogue.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import { parsePath, withoutPaths, type PathStep } from "./json-path.js";
import type { ReplayRequest } from "./request.js";

/** Argument paths ignored by default: session labels and out-file paths change from run to run. */
export const DEFAULT_IGNORE: readonly string[] = VOLATILE_ARG_KEYS;

export interface KeyOptions {
  ignore: readonly PathStep[][];
}

export function keyOptions(options: { ignore?: readonly string[]; noDefaults?: boolean }): KeyOptions {
  const paths = [...(options.noDefaults ? [] : DEFAULT_IGNORE), ...(options.ignore ?? [])];
  return { ignore: paths.map((p) => parsePath(p)) };
}

/** The arguments that take part in matching (volatile members removed). */
export function matchArgs(request: ReplayRequest, options: KeyOptions): unknown {
  return request.method === "call" ? withoutPaths(request.args ?? {}, options.ignore) : (request.args ?? null);
}

/** Request identity: method + tool + canonical arguments (+ CLI flags). Transport is not part of it. */
export function matchKey(request: ReplayRequest, options: KeyOptions): string {
  const flags = request.flags && Object.keys(request.flags).length > 0 ? canonicalJson(request.flags) : "";
  return `${request.method}\u0000${request.tool ?? ""}\u0000${canonicalJson(matchArgs(request, options))}\u0000${flags}`;
}
