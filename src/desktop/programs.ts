/** Which programs the recording desktop needs, and which of them are missing here. */
import { access, constants } from "node:fs/promises";
import path from "node:path";

/** Program → the Debian package that ships it. */
export const DESKTOP_PROGRAMS: Record<string, string> = {
  Xvfb: "xvfb",
  "dbus-daemon": "dbus-daemon",
  "dbus-send": "dbus-bin",
  "/usr/libexec/at-spi-bus-launcher": "at-spi2-core",
  "/usr/libexec/at-spi2-registryd": "at-spi2-core",
  openbox: "openbox",
  xdotool: "xdotool",
};

export async function missingDesktopPrograms(options: { app: string[] | null }): Promise<string[]> {
  const wanted = [...Object.keys(DESKTOP_PROGRAMS), ...(options.app?.[0] ? [options.app[0]] : [])];
  const missing: string[] = [];
  for (const program of wanted) if (!(await findProgram(program))) missing.push(program);
  return missing;
}

/** The first executable `program` on PATH (or the path itself when it has a slash). */
export async function findProgram(program: string): Promise<string | undefined> {
  const candidates = program.includes("/") ? [program] : (process.env.PATH ?? "").split(path.delimiter).map((d) => path.join(d, program));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}
