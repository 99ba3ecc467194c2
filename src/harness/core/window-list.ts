import type { Reply } from "#src/driver/port.js";
import { isTransportFailure } from "#src/driver/port.js";
import { structuredOf } from "./reply-fields.js";

/** One window of a `list_windows` answer. */
export interface WindowInfo {
  window_id: number;
  pid?: number;
  title?: string;
  app_name?: string;
  x: number;
  y: number;
  width: number;
  height: number;
  z_index: number;
  on_screen: boolean;
  active?: boolean;
}

/** complete: the list can be trusted; partial: it came back but proves nothing (empty); failed: no list. */
export type WindowListStatus = "complete" | "partial" | "failed";

/** A `list_windows` answer read by a window-list policy: the windows, and whether the list is complete. */
export interface WindowList {
  status: WindowListStatus;
  windows: WindowInfo[];
  /** Why the list is not complete. */
  reason?: string;
}

function num(v: unknown, fallback = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

function row(raw: unknown): WindowInfo | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.window_id !== "number" || r.window_id <= 0) return undefined;
  const b = (r.bounds && typeof r.bounds === "object" ? r.bounds : r) as Record<string, unknown>;
  const w: WindowInfo = {
    window_id: r.window_id,
    x: num(b.x),
    y: num(b.y),
    width: num(b.width),
    height: num(b.height),
    z_index: typeof r.z_index === "number" ? r.z_index : 0,
    on_screen: r.is_on_screen !== false,
  };
  if (typeof r.pid === "number" && r.pid > 0) w.pid = r.pid;
  if (typeof r.title === "string") w.title = r.title;
  if (typeof r.app_name === "string") w.app_name = r.app_name;
  const active = r.is_active ?? r.focused ?? r.active;
  if (typeof active === "boolean") w.active = active;
  return w;
}

/** The rows of a `list_windows` reply, or undefined when the reply is not a window list. */
export function parseWindowRows(reply: Reply): WindowInfo[] | undefined {
  if (isTransportFailure(reply) || reply.isError === true) return undefined;
  const windows = structuredOf(reply)?.windows;
  if (!Array.isArray(windows)) return undefined;
  return windows.map(row).filter((w): w is WindowInfo => w !== undefined);
}

/** Decides how far a `list_windows` reply can be trusted. Replaceable so a test can break it. */
export interface WindowListPolicy {
  assess(reply: Reply): WindowList;
  /** The windows input may be aimed at after this list, given those observed before it. */
  windowsAfter(list: WindowList, before: ReadonlySet<number>): Set<number>;
}

/** A failed list is not "no windows", and neither is an empty one: both make the observation partial. */
export const strictWindowListPolicy: WindowListPolicy = {
  assess(reply) {
    const rows = parseWindowRows(reply);
    if (rows === undefined) {
      const why = isTransportFailure(reply) ? reply.kind : "the driver returned an error";
      return { status: "failed", windows: [], reason: `list_windows failed (${why}); that is not proof of no windows` };
    }
    if (rows.length === 0) return { status: "partial", windows: [], reason: "list_windows came back empty; that is not proof of no windows" };
    return { status: "complete", windows: rows };
  },
  windowsAfter(list) {
    return list.status === "complete" ? new Set(list.windows.map((w) => w.window_id)) : new Set();
  },
};
