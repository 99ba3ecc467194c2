import { createSdkDriver } from "./dist/transports/sdk/driver.js";
import { startRecordingDesktop } from "./dist/desktop/recording-desktop.js";
for (const round of [1, 2, 3]) {
  const desk = await startRecordingDesktop({ xServerAfterExit: false });
  const d = await createSdkDriver({ version: "0.21.0" });
  const w = await d.call("list_windows", {});
  const win = w.structuredContent.windows.find((x) => x.pid === desk.appPid) ?? w.structuredContent.windows[0];
  const s = await d.call("get_window_state", { pid: win.pid, window_id: win.window_id });
  console.log("round", round, desk.display, s.structuredContent.element_count, s.structuredContent.degraded_reason ?? "");
  await d.close?.();
  await desk.stop();
}
process.exit(0);
