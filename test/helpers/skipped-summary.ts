export type SystemNeed = "desktop" | "chromium";

/** What each need installs, in .ci/run's words. */
export const INSTALL: Record<SystemNeed, string> = {
  desktop: "xvfb openbox at-spi2-core gtk-3-examples dbus-x11 xdotool",
  chromium: "chromium",
};

/** One line for every test skipped for want of a Debian package: what, what is missing, how to install it. */
export function skippedSummary(log: string): string | undefined {
  const entries = log
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { need: SystemNeed; what: string; missing: string[] });
  if (entries.length === 0) return undefined;
  const needs = [...new Set(entries.map((e) => e.need))];
  const missing = [...new Set(entries.flatMap((e) => e.missing))];
  const what = [...new Set(entries.map((e) => e.what))];
  const packages = [...new Set(needs.flatMap((n) => INSTALL[n].split(" ")))];
  return `SKIPPED ${what.length} test group(s) (${what.join("; ")}): ${missing.join(", ")} not found. Install with \`sudo apt-get install ${packages.join(" ")}\` (.ci/run does; CI=true makes a missing package fail).`;
}
