// Cost of answering a per-call CLI invocation from the in-process runtime (@trycua/cua-driver)
// through the shim (process spawn → socket → SDK backend → render → exit), against the runtime's
// own callTool for the same call, and the spawn floor (the same shim answering a canned reply).
import { execFile } from "node:child_process";
import { startDesktop } from "../dist/desktop/desktop.js";
import { missingDesktopPrograms } from "../dist/desktop/programs.js";
import { startShimServer } from "../dist/shim-server/index.js";
import { createSdkBackend } from "../dist/transports/sdk/sdk-backend.js";
import { fmt, median, timeInterleaved } from "./util.js";

export const name = "sdk";
export const title = "SDK backend per call: through the CLI shim vs the runtime's own callTool";

const exec = (file, args, env) =>
  new Promise((resolve, reject) =>
    execFile(file, args, { env, encoding: "buffer", maxBuffer: 64 << 20 }, (err) => (err && typeof err.code !== "number" ? reject(err) : resolve())),
  );

async function measure({ cases, runs }) {
  const backend = await createSdkBackend();
  const sdkServer = await startShimServer({ backend });
  const canned = { cli: async () => ({ stdout: Buffer.from("{}\n"), stderr: Buffer.alloc(0), exitCode: 0 }), mcp: () => ({ line() {}, end() {} }) };
  const floorServer = await startShimServer({ backend: canned });
  const env = { ...process.env };
  try {
    const rows = [];
    for (const c of cases) {
      const json = JSON.stringify(c.args);
      // The same shim answering, without the runtime, a canned reply of the bytes this call prints.
      const sample = await backend.cli({
        argv: ["call", c.tool, json],
        stdin: Buffer.alloc(0),
        cwd: process.cwd(),
        env: { PATH: "" },
        signal: new AbortController().signal,
      });
      const sameBytes = await startShimServer({ backend: { cli: async () => sample, mcp: () => ({ line() {}, end() {} }) } });
      try {
        const t = await timeInterleaved(
          {
            inproc: () => backend.driver.callTool(c.tool, json),
            shim: () => exec(sdkServer.shimPath, ["call", c.tool, json], env),
            floor: () => exec(floorServer.shimPath, ["call", c.tool, json], env),
            sameBytes: () => exec(sameBytes.shimPath, ["call", c.tool, json], env),
          },
          { runs, warmup: 3 },
        );
        // Paired per run (the calls of a run are adjacent), so load swings hit both sides alike.
        const added = median(t.shim.map((ms, i) => ms - t.inproc[i]));
        rows.push({
          label: c.label,
          bytes: sample.stdout.length,
          inproc: median(t.inproc),
          shim: median(t.shim),
          floor: median(t.floor),
          sameBytes: median(t.sameBytes),
          added,
          kind: sdkServer.shimKind,
        });
      } finally {
        await sameBytes.close();
      }
    }
    return rows;
  } finally {
    await sdkServer.close();
    await floorServer.close();
  }
}

export async function run() {
  const headless = [{ label: "get_config (headless)", tool: "get_config", args: {} }];
  const rows = [];
  const saved = { DISPLAY: process.env.DISPLAY, DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS };
  delete process.env.DISPLAY;
  rows.push(...(await measure({ cases: headless, runs: 30 })));
  let note = "";
  if ((await missingDesktopPrograms({ app: ["gtk3-demo"] })).length === 0) {
    const desktop = await startDesktop();
    try {
      Object.assign(process.env, desktop.env);
      const probe = await (await createSdkBackend()).driver.callTool("list_windows", "{}");
      const win = JSON.parse(probe.rawJson).structuredContent.windows[0];
      const target = { pid: win.pid, window_id: win.window_id };
      rows.push(
        ...(await measure({
          cases: [
            { label: "list_windows (Xvfb, gtk3-demo)", tool: "list_windows", args: {} },
            {
              label: "get_window_state, no screenshot (171 elements, ~84 KB stdout)",
              tool: "get_window_state",
              args: { ...target, include_screenshot: false },
            },
            { label: "get_desktop_state (1280×800 PNG merged as screenshot_png_b64)", tool: "get_desktop_state", args: {} },
          ],
          runs: 15,
        })),
      );
    } finally {
      await desktop.stop();
      for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    }
  } else {
    note = "\nThe desktop packages are missing here, so only the headless case was measured.\n";
  }
  if (saved.DISPLAY !== undefined) process.env.DISPLAY = saved.DISPLAY;
  const lines = [
    "Target: the shim adds no more than the spawn floor: added ≤ floor, where added is the median over runs of (through the shim − in-process callTool) for the same call in the same run, and the floor is the same shim answered with a canned reply (medians of interleaved runs; the runtime is created once and kept).",
    "",
    "| call | stdout bytes | in-process callTool (ms) | through the shim (ms) | shim ÷ callTool | floor (ms) | added (ms) | added ÷ floor | target | canned reply of the same bytes (ms) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ...rows.map((r) => {
      const added = r.added;
      return `| ${r.label}, ${r.kind} shim | ${r.bytes} | ${fmt(r.inproc, 3)} | ${fmt(r.shim, 1)} | ${fmt(r.shim / r.inproc, 1)} | ${fmt(r.floor, 1)} | ${fmt(added, 1)} | ${fmt(added / r.floor)} | ${added <= r.floor ? "pass" : "miss"} | ${fmt(r.sameBytes, 1)} |`;
    }),
    "",
    "The last column is the shim answering a canned reply of exactly the bytes the call prints (no runtime, no rendering): when `added` exceeds the floor but stays near that column, the excess is the shim's transfer of a large stdout, not the SDK backend.",
    note,
    "For cheap calls the ratio to callTool is large because callTool itself takes about a millisecond or less; the per-call price of the CLI transport is then the process spawn.",
  ];
  return lines.join("\n");
}
