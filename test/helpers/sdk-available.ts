import { locateSdk } from "#src/runtime/load.js";

/**
 * Installs `@trycua/cua-driver@VERSION` into the private cache once (the project's own copy
 * serves its pinned version). Resolves to why it is not usable when the npm registry cannot be
 * reached, so a test can skip with that message; any other failure is thrown.
 */
export async function sdkUnavailable(version: string): Promise<string | undefined> {
  try {
    await locateSdk(version);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/npm registry|could not install|ENOTFOUND|ECONNREFUSED|EAI_AGAIN|network/i.test(message)) {
      return `skipped: @trycua/cua-driver@${version} is not cached and the npm registry is unreachable (${message})`;
    }
    throw error;
  }
}
