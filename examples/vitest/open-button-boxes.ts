// A small in-process harness: open gtk3-demo's "Button Boxes" demo through the cua-driver Driver
// port, reading again after the click and failing closed when the click's outcome is unknown.
import type { Driver, Reply } from "cua-contract/harness";

export const SESSION = "vitest-example";

export interface Outcome {
  /** The click's effect as the driver reported it, or `unknown` when the call did not answer. */
  effect: string;
  /** Windows listed after the click. */
  windows: number;
  /** The session was rebuilt because the click's outcome was unknown. */
  rebuilt: boolean;
}

type Structured = Record<string, unknown> & { windows?: { pid: number; window_id: number }[]; elements?: { label?: string; element_token?: string }[] };

const structured = (tool: string, reply: Reply): Structured => {
  if ("kind" in reply) throw new Error(`${tool}: ${reply.kind}: ${reply.message}`);
  return (reply.structuredContent ?? {}) as Structured;
};

export async function openButtonBoxes(driver: Driver, options: { appPid?: number; timeoutMs?: number } = {}): Promise<Outcome> {
  const call = (tool: string, args: Record<string, unknown>) => driver.call(tool, args, { timeoutMs: options.timeoutMs ?? 30_000 });
  structured("start_session", await call("start_session", { session: SESSION }));
  const windows = structured("list_windows", await call("list_windows", {})).windows ?? [];
  const win = windows.find((w) => w.pid === options.appPid) ?? windows[0];
  if (!win) throw new Error("list_windows found no window");
  const target = { pid: win.pid, window_id: win.window_id, session: SESSION };
  const state = structured("get_window_state", await call("get_window_state", target));
  const token = state.elements?.find((e) => e.label === "Button Boxes")?.element_token;
  if (!token) throw new Error(`no "Button Boxes" element among ${state.elements?.length ?? 0}`);
  const click = await call("click", { ...target, element_token: token });
  let rebuilt = false;
  if ("kind" in click) {
    // outcome unknown: never re-send the click; rebuild the session before anything else
    structured("start_session", await call("start_session", { session: SESSION }));
    rebuilt = true;
  }
  const after = structured("list_windows", await call("list_windows", {})).windows ?? [];
  structured("get_window_state", await call("get_window_state", target));
  structured("end_session", await call("end_session", { session: SESSION }));
  const effect = "kind" in click ? "unknown" : String((click.structuredContent as { effect?: unknown } | undefined)?.effect ?? "none");
  return { effect, windows: after.length, rebuilt };
}
