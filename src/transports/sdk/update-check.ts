/**
 * The update check behind `check-update` and `check_for_update` for the sdk backend, done the way
 * the binary does it (version_check.rs:196-304, 667-729): one GitHub releases request with a 4 s
 * timeout, the highest non-draft stable `cua-driver-rs-v*` tag. No on-disk cache (the binary keeps
 * one for 20 h in ~/.cua-driver/version_check.json; the backend never writes the user's home).
 */
import { checkedAt, offlineUpdateState, updateStateFor, type UpdateState } from "#src/driver/update-check.js";

const RELEASES_URL = "https://api.github.com/repos/trycua/cua/releases?per_page=40";
const TIMEOUT_MS = 4000;

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
    if (res.status >= 400) return { error: `HTTP error: http status: ${res.status}` };
    try {
      body = await res.json();
    } catch (error) {
      return { error: `JSON parse error: ${(error as Error).message}` };
    }
  } catch (error) {
    return { error: `HTTP error: ${fetchErrorText(error)}` };
  }
  const latest = pickLatestStable(body);
  return latest ? { latest } : { error: "no matching cua-driver-rs-v* release in response" };
};

function fetchErrorText(error: unknown): string {
  const e = error as { name?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError") return "timeout: global";
  const code = e.cause?.code;
  if (code === "EAI_AGAIN") return "io: failed to lookup address information: Temporary failure in name resolution";
  if (code === "ENOTFOUND") return "io: failed to lookup address information: Name or service not known";
  return `io: ${e.cause?.message ?? (error as Error).message}`;
}

/** `pick_latest_release` for the stable channel (version_check.rs:698-729). */
export function pickLatestStable(body: unknown): string | undefined {
  if (!Array.isArray(body)) return undefined;
  let best: number[] | undefined;
  for (const r of body as { tag_name?: unknown; draft?: unknown }[]) {
    if (typeof r?.tag_name !== "string" || r.draft === true) continue;
    const m = /^cua-driver-rs-v(\d+)\.(\d+)\.(\d+)$/.exec(r.tag_name);
    if (!m) continue;
    const v = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (!best || v[0]! > best[0]! || (v[0] === best[0] && (v[1]! > best[1]! || (v[1] === best[1] && v[2]! > best[2]!)))) best = v;
  }
  return best?.join(".");
}
