import { createSdkDriver } from "./dist/transports/sdk/driver.js";
import { startRecordingDesktop } from "./dist/desktop/recording-desktop.js";
const first = process.argv[2];
if (first) {
  const d0 = await createSdkDriver({ version: "0.21.0" });
  for (const t of first.split(",")) { const r = await d0.call(t, t === "get_window_state" ? { pid: 1, window_id: 1 } : {}); console.log("pre", t, JSON.stringify(r).slice(0, 150)); }
  await d0.close?.();
}
const desk = await startRecordingDesktop({ xServerAfterExit: true });
const d = await createSdkDriver({ version: "0.21.0" });
const w = await d.call("list_windows", {});
const win = w.structuredContent.windows.find((x) => x.pid === desk.appPid) ?? w.structuredContent.windows[0];
const s = await d.call("get_window_state", { pid: win.pid, window_id: win.window_id });
console.log("after", s.structuredContent.element_count, s.structuredContent.degraded_reason ?? "");
await d.close?.();
await desk.stop();
process.exit(0);
