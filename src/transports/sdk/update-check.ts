/**
 * The update check behind `check-update` and `check_for_update` for the sdk backend, done the way
 * the binary does it (version_check.rs:196-304, 667-729): one GitHub releases request with a 4 s
 * timeout, the highest non-draft stable `cua-driver-rs-v*` tag. No on-disk cache (the binary keeps
 * one for 20 h in ~/.cua-driver/version_check.json; the backend never writes the user's home).
 */
import {
  checkedAt,
  FETCH_ERRORS,
  offlineUpdateState,
  pickLatestStable,
  RELEASES_TIMEOUT_MS as TIMEOUT_MS,
  RELEASES_URL,
  updateStateFor,
  type UpdateState,
} from "#src/driver/update-check.js";

/** Where the latest version comes from: a version, or the error text the driver would report. */
export type LatestRelease = (version: string) => Promise<{ latest: string } | { error: string }>;

export async function updateState(options: { version: string; latest: LatestRelease; now?: Date }): Promise<UpdateState> {
  const at = checkedAt((options.now ?? new Date()).toISOString());
  const found = await options.latest(options.version);
  return "latest" in found
    ? updateStateFor({ version: options.version, latest: found.latest, checkedAt: at })
    : offlineUpdateState({ version: options.version, checkedAt: at, error: found.error });
}

/** The real GitHub request, its failures worded as ureq words them behind `HTTP error: ` (ureq error.rs). */
export const githubLatestRelease: LatestRelease = async (version) => {
  let body: unknown;
  try {
    const res = await fetch(RELEASES_URL, {
      headers: { accept: "application/vnd.github+json", "user-agent": `cua-driver-rs/${version}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status >= 400) return { error: FETCH_ERRORS.status(res.status) };
    try {
      body = await res.json();
    } catch (error) {
      return { error: FETCH_ERRORS.json((error as Error).message) };
    }
  } catch (error) {
    return { error: FETCH_ERRORS.http(fetchErrorText(error)) };
  }
  const latest = pickLatestStable(body);
  return latest ? { latest } : { error: FETCH_ERRORS.noRelease };
};

function fetchErrorText(error: unknown): string {
  const e = error as { name?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError") return FETCH_ERRORS.timeout;
  const code = e.cause?.code;
  if (code === "EAI_AGAIN") return FETCH_ERRORS.lookupTemporary;
  if (code === "ENOTFOUND") return FETCH_ERRORS.lookupNotFound;
  return FETCH_ERRORS.io(e.cause?.message ?? (error as Error).message);
}
