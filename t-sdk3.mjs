import { createSdkDriver } from "./dist/transports/sdk/driver.js";
import { startRecordingDesktop } from "./dist/desktop/recording-desktop.js";
const d0 = await createSdkDriver({ version: "0.21.0" });
const tools = (process.argv[2] ?? "get_accessibility_tree,list_apps,get_window_state,check_permissions,get_cursor_position,screenshot").split(",");
for (const t of tools) { const r = await d0.call(t, {}); console.log("pre", t, JSON.stringify(r).slice(0, 120)); }
const desk = await startRecordingDesktop({ xServerAfterExit: true });
const d = await createSdkDriver({ version: "0.21.0" });
const w = await d.call("list_windows", {});
const win = w.structuredContent.windows.find((x) => x.pid === desk.appPid) ?? w.structuredContent.windows[0];
const s = await d.call("get_window_state", { pid: win.pid, window_id: win.window_id });
console.log("after", s.structuredContent.element_count, s.structuredContent.degraded_reason ?? "");
await desk.stop();
process.exit(0);
