/**
 * The driver's update check (cua-driver 0.21.0: version_check.rs:119-146, 196-304,
 * cli.rs:3629-3669, check_update_tool.rs:29-86; docs/discoveries/maintenance-surface.md): the state
 * it reports, the texts `check-update` and the `check_for_update` tool say about it, and the tool's
 * tools/list entry. Pure: the state comes in, text comes out; whoever calls decides where "latest"
 * came from. `src/transports/cli/wire/update-check.ts` encodes it.
 */

/** `UpdateState` (version_check.rs:119-146), every field present; serde writes `None` as null. */
export interface UpdateState {
  current_version: string;
  current_channel: "stable" | "nightly" | null;
  selected_channel: "stable" | "nightly" | null;
  latest_version: string | null;
  update_available: boolean;
  source: "github_releases";
  /** `YYYY-MM-DDTHH:MM:SSZ`, whole seconds (version_check.rs:761-764). */
  checked_at: string;
  cache_hit: boolean;
  install_command: string | null;
  release_notes_url: string | null;
  error: string | null;
}

/** Where the check asks for releases (version_check.rs:667-729): one request, a 4 s timeout. */
export const RELEASES_URL = "https://api.github.com/repos/trycua/cua/releases?per_page=40";
export const RELEASES_TIMEOUT_MS = 4000;

/**
 * The check's error texts, as the driver words them: a failed request is `HTTP error: ` (version_check.rs:683)
 * + ureq's text (ureq error.rs Display), whose `io: …` for a failed lookup is Rust std's getaddrinfo
 * text with glibc's message.
 */
export const FETCH_ERRORS = {
  http: (detail: string) => `HTTP error: ${detail}`,
  status: (status: number) => `HTTP error: http status: ${status}`,
  json: (message: string) => `JSON parse error: ${message}`,
  timeout: "timeout: global",
  /** EAI_AGAIN: no DNS. */
  lookupTemporary: "io: failed to lookup address information: Temporary failure in name resolution",
  /** ENOTFOUND. */
  lookupNotFound: "io: failed to lookup address information: Name or service not known",
  io: (message: string) => `io: ${message}`,
  noRelease: "no matching cua-driver-rs-v* release in response",
} as const;

/** The fetch error of a machine that cannot resolve api.github.com. */
export const OFFLINE_FETCH_ERROR = FETCH_ERRORS.http(FETCH_ERRORS.lookupTemporary);

/** The install one-liner on Linux and macOS (version_check.rs:175-184). */
export const INSTALL_COMMAND = "curl -fsSL https://cua.ai/driver/install.sh | bash";

/** `ReleaseChannel::from_version` (release_channel.rs:24-36): plain semver is stable. */
export function channelOf(version: string): "stable" | "nightly" | null {
  if (/^\d+\.\d+\.\d+$/.test(version)) return "stable";
  if (/^\d+\.\d+\.\d+-nightly\.[0-9A-Za-z.]+$/.test(version)) return "nightly";
  return null;
}

/** An ISO-8601 instant cut to whole seconds, the way the driver writes `checked_at`. */
export function checkedAt(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? "1970-01-01T00:00:00Z" : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** What the check returns when GitHub cannot be reached and no cache exists (version_check.rs:266-279, 291-304). */
export function offlineUpdateState(options: { version: string; checkedAt: string; error?: string }): UpdateState {
  const current = channelOf(options.version);
  return {
    current_version: options.version,
    current_channel: current,
    selected_channel: "stable",
    latest_version: null,
    update_available: false,
    source: "github_releases",
    checked_at: options.checkedAt,
    cache_hit: false,
    install_command: null,
    release_notes_url: null,
    error: options.error ?? OFFLINE_FETCH_ERROR,
  };
}

/** What the check returns when the latest stable release is `latest` (version_check.rs:281-304, 525-535). */
export function updateStateFor(options: { version: string; latest: string; checkedAt: string }): UpdateState {
  const current = channelOf(options.version);
  const available = (current !== null && current !== "stable") || isNewer(options.latest, options.version);
  return {
    current_version: options.version,
    current_channel: current,
    selected_channel: "stable",
    latest_version: options.latest,
    update_available: available,
    source: "github_releases",
    checked_at: options.checkedAt,
    cache_hit: false,
    install_command: available ? INSTALL_COMMAND : null,
    release_notes_url: available ? `https://github.com/trycua/cua/releases/tag/cua-driver-rs-v${options.latest}` : null,
    error: null,
  };
}

/** `pick_latest_release` for the stable channel (version_check.rs:698-729): the highest non-draft `cua-driver-rs-vX.Y.Z` tag. */
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

/** Plain `x.y.z` comparison; the driver uses semver precedence, the same for release versions. */
export function isNewer(latest: string, current: string): boolean {
  const a = latest.split(/[.-]/).slice(0, 3).map(Number);
  const b = current.split(/[.-]/).slice(0, 3).map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}

/** `cua-driver check-update` text mode (cli.rs:3629-3669): its lines, each without the newline. */
export function checkUpdateLines(state: UpdateState): string[] {
  const lines = [`Current: ${state.current_version}`];
  if (state.latest_version !== null) {
    lines.push(`Latest:  ${state.latest_version}`, "");
    if (state.update_available) {
      lines.push("Update available. Run `cua-driver update --apply` to install.");
      if (state.release_notes_url !== null) lines.push(`Release notes: ${state.release_notes_url}`);
    } else lines.push("You're on the latest release.");
  } else if (state.error !== null) {
    lines.push("Latest:  <unavailable>", "", `Could not reach GitHub: ${state.error}`);
  } else lines.push("Latest:  <unavailable>");
  return lines;
}

/** `cua-driver check-update` exits 1 only when the check failed outright. */
export function checkUpdateExitCode(state: UpdateState): number {
  return state.error !== null && state.latest_version === null ? 1 : 0;
}

/** The summary text of the `check_for_update` tool result (check_update_tool.rs:59-86). */
export function updateSummary(state: UpdateState): string {
  return state.error !== null
    ? `Update check failed: ${state.error}`
    : state.update_available
      ? `Update available: cua-driver ${state.latest_version ?? "?"} (you have ${state.current_version}).`
      : `Up to date (cua-driver ${state.current_version}).`;
}

/**
 * The `check_for_update` entry of the binary's tools/list (check_update_tool.rs:29-50 through
 * tool.rs:159-206, risk r0 metadata_only, capability `driver.update_check` tool.rs:415), keys sorted.
 * The binary registers it after the platform tools (history_runtime.rs:419-422, main.rs:284-298);
 * the published runtime's own inventory does not have it.
 */
export const CHECK_FOR_UPDATE_ENTRY = {
  annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true, readOnlyHint: true },
  capabilities: ["driver.update_check"],
  description:
    "Check the saved stable/nightly Cua Driver channel for a release on GitHub. Returns current and selected channels, current and latest versions, an `update_available` boolean, the install one-liner, and the release notes URL. Read-only — never installs. Mirror of `cua-driver check-update --json`.",
  inputSchema: { additionalProperties: false, properties: {}, type: "object" },
  name: "check_for_update",
  risk: { class: "r0", enforcement: "metadata_only", operation_sensitive: false, version: "1" },
} as const;
