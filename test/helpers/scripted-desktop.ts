// A scripted desktop answering per-call `cua-driver call …` as the 0.21 CLI prints it (pretty JSON,
// sorted keys): one app window whose pid, window id and snapshot numbers are chosen per run, the
// driver's token rule (only the newest snapshot of a window is honoured), a second window after a
// click. Tests run one as "the recording" and another, with other ids, as "the live desktop".
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { LiveDriver } from "#src/recorder/record-missing/live-driver.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";

/** A 1x1 PNG (a real one, so the recorder stores it as a frame). */
export const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

export interface ScriptedDesktop extends LiveDriver {
  /** Every tool call it got, with the arguments as it got them. */
  readonly calls: { tool: string; args: Record<string, unknown> }[];
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === "object"
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
const pretty = (v: unknown) => `${JSON.stringify(sorted(v), null, 2)}\n`;
const ok = (v: unknown): CliResponse => ({ stdout: Buffer.from(pretty(v)), stderr: Buffer.alloc(0), exitCode: 0 });
const hex = (n: number) => `s${n.toString(16).padStart(8, "0")}`;

/** `refuse`: a tool this desktop refuses with this code (an element another run could reach and this one cannot). */
export function scriptedDesktop(options: { pid: number; window: number; firstSnapshot?: number; refuse?: { tool: string; code: string } }): ScriptedDesktop {
  const { pid, window } = options;
  let snapshot = (options.firstSnapshot ?? 1) - 1;
  let newest: string | undefined;
  let title = "Main";
  let dialog = false;
  let frame = { x: 10, y: 20, width: 800, height: 600 };
  const calls: ScriptedDesktop["calls"] = [];
  const windows = () => [
    { app_name: "Demo", bounds: { ...frame }, pid, title, window_id: window, z_index: 0 },
    ...(dialog ? [{ app_name: "Demo", bounds: { x: 1, y: 1, width: 300, height: 200 }, pid, title: "Dialog", window_id: window + 7, z_index: 1 }] : []),
  ];
  const elements = (snap: string) =>
    ["Open", "Search", "Close"].map((label, i) => ({ depth: 1, element_index: i, element_token: `${snap}:${i}`, enabled: true, label, role: "push button" }));
  const wrongTarget = (a: Record<string, unknown>) =>
    a.pid !== pid || a.window_id !== window
      ? {
          stdout: Buffer.from(`Window target pid ${String(a.pid)}, window_id ${String(a.window_id)} is stale or no longer running; refresh list_windows.\n`),
          stderr: Buffer.alloc(0),
          exitCode: 0,
        }
      : undefined;

  const answer = (tool: string, a: Record<string, unknown>, request: CliRequest, outFile: string | undefined): CliResponse => {
    switch (tool) {
      case "start_session":
        return ok({
          active: true,
          capture_scope: "auto",
          desktop_unlocked: false,
          effective_scope: "window",
          escalation_detail: null,
          escalation_reason: null,
          revived: false,
          session: a.session,
        });
      case "end_session":
        return ok({ active: false, session: a.session });
      case "get_screen_size":
        return ok({ height: 800, width: 1280 });
      case "list_windows":
        return ok({ windows: windows() });
      case "get_window_state": {
        const wrong = wrongTarget(a);
        if (wrong) return wrong;
        const snap = hex(++snapshot);
        newest = snap;
        const all = elements(snap);
        const shown = typeof a.query === "string" ? all.filter((e) => e.label.includes(a.query as string)) : all;
        if (outFile) writeFileSync(path.resolve(request.cwd, outFile), PNG_1X1);
        return ok({
          element_count: all.length,
          elements: shown,
          pid,
          snapshot_id: snap,
          tree_markdown: `window_id=${window} pid=${pid} elements=${all.length}\n\n- frame = "${title}"\n${shown.map((e) => `  - [${e.element_index}] push button "${e.label}"`).join("\n")}\n`,
          window_id: window,
        });
      }
      case "click": {
        const wrong = wrongTarget(a);
        if (wrong) return wrong;
        const token = typeof a.element_token === "string" ? a.element_token : "";
        if (token.split(":")[0] !== newest) {
          return ok({ refusal: { code: "stale_element_token", message: "element_token is stale; call get_window_state again to refresh" }, status: "refused" });
        }
        dialog = true;
        return ok({ delivery: { mode: "background" }, effect: "unverifiable", route: "accessibility" });
      }
      case "type_text": {
        const wrong = wrongTarget(a);
        if (wrong) return wrong;
        title = "Typed";
        return ok({ delivery: { mode: "foreground" }, effect: "unverifiable", route: "global_input" });
      }
      case "set_window_frame": {
        const wrong = wrongTarget(a);
        if (wrong) return wrong;
        frame = { x: Number(a.x), y: Number(a.y), width: Number(a.width), height: Number(a.height) };
        return ok({ delivery: { mode: "not_applicable" }, effect: "confirmed", evidence: [{ kind: "value_readback" }], route: "system_api" });
      }
      default:
        return { stdout: Buffer.alloc(0), stderr: Buffer.from(`Unknown tool: ${tool}\n`), exitCode: 64 };
    }
  };

  return {
    info: { version: "0.21.0", platform: `${process.platform}-${process.arch}`, source: "synthetic", location: "scripted-desktop" },
    calls,
    async cli(request) {
      const parsed = parseDriverArgv(request.argv);
      if (parsed.subcommand === "version") return { stdout: Buffer.from("cua-driver 0.21.0\n"), stderr: Buffer.alloc(0), exitCode: 0 };
      if (parsed.subcommand !== "call" || !parsed.tool) return { stdout: Buffer.alloc(0), stderr: Buffer.from("scripted desktop: only call\n"), exitCode: 64 };
      const args = JSON.parse(parsed.json ?? (request.stdin.toString("utf8") || "{}")) as Record<string, unknown>;
      calls.push({ tool: parsed.tool, args });
      if (options.refuse?.tool === parsed.tool)
        return ok({ refusal: { code: options.refuse.code, message: `refused: ${options.refuse.code}` }, status: "refused" });
      const out = parsed.flags.get("--screenshot-out-file");
      return answer(parsed.tool, args, request, typeof out === "string" ? out : undefined);
    },
    mcp(_init, io) {
      // direct-mode MCP: the same answers as JSON-RPC results, structuredContent and one text block
      return {
        line(line) {
          const m = JSON.parse(line) as { id?: unknown; method?: string; params?: { name?: string; arguments?: Record<string, unknown> } };
          if (m.id === undefined) return;
          const reply = (result: unknown) => io.send(`{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${JSON.stringify(sorted(result))}}`);
          if (m.method === "initialize")
            return reply({ capabilities: { tools: {} }, protocolVersion: "2025-06-18", serverInfo: { name: "cua-driver", version: "0.21.0" } });
          if (m.method === "tools/list") return reply({ tools: [] });
          const tool = m.params?.name ?? "";
          const args = m.params?.arguments ?? {};
          calls.push({ tool, args });
          const cli =
            options.refuse?.tool === tool
              ? ok({ refusal: { code: options.refuse.code, message: `refused: ${options.refuse.code}` }, status: "refused" })
              : answer(tool, args, { argv: [], stdin: Buffer.alloc(0), cwd: "/", env: {}, signal: new AbortController().signal }, undefined);
          const text = cli.stdout.toString("utf8");
          let structured: unknown;
          try {
            structured = JSON.parse(text);
          } catch {
            return reply({ content: [{ text: text.trim(), type: "text" }], isError: true });
          }
          const refused = typeof structured === "object" && structured !== null && "refusal" in structured;
          reply({ content: [{ text: `${tool} answered for pid ${pid}`, type: "text" }], ...(refused ? { isError: true } : {}), structuredContent: structured });
        },
        end: () => io.exit(0),
      };
    },
    close: async () => {},
  };
}
