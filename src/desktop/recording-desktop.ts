/**
 * `record --desktop`: a throwaway desktop whose environment (DISPLAY, D-Bus, CUA_DESKTOP_APP_PID)
 * is put into this process's environment for the recording — the in-process runtime and the
 * harness both read it from there — and taken out again, with the desktop, on dispose.
 */
import { startDesktop, type Desktop, type DesktopOptions } from "./desktop.js";

export async function startRecordingDesktop(options: DesktopOptions = {}): Promise<Desktop> {
  const desktop = await startDesktop(options);
  const added: Record<string, string> = { ...desktop.env, ...(desktop.appPid ? { CUA_DESKTOP_APP_PID: String(desktop.appPid) } : {}) };
  const before = new Map(Object.keys(added).map((k) => [k, process.env[k]]));
  Object.assign(process.env, added);
  const stop = async () => {
    for (const [k, v] of before) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await desktop.stop();
  };
  return { ...desktop, stop, [Symbol.asyncDispose]: stop };
}
