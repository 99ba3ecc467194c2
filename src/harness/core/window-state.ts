import type { Reply } from "#src/driver/port.js";
import { isTransportFailure } from "#src/driver/port.js";
import { firstText, structuredOf } from "./reply-fields.js";

/** One element of a `get_window_state` answer. */
export interface ElementInfo {
  element_index: number;
  element_token?: string;
  role?: string;
  label?: string;
  frame?: { x: number; y: number; w: number; h: number };
  enabled?: boolean;
}

/** One window as `get_window_state` described it, or why it could not. */
export interface WindowState {
  pid?: number;
  window_id?: number;
  snapshot_id?: string;
  elements: ElementInfo[];
  returned?: number;
  total?: number;
  /** base64 screenshot and its mime type, when the reply carried one. */
  image?: { data: string; mimeType: string };
  /** The text tree, for a comparison when there is no image. */
  tree?: string;
  failed?: string;
}

function element(raw: unknown): ElementInfo | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.element_index !== "number") return undefined;
  const e: ElementInfo = { element_index: r.element_index };
  if (typeof r.element_token === "string") e.element_token = r.element_token;
  if (typeof r.role === "string") e.role = r.role;
  if (typeof r.label === "string") e.label = r.label;
  if (typeof r.enabled === "boolean") e.enabled = r.enabled;
  const f = r.frame as Record<string, unknown> | undefined;
  if (f && typeof f.x === "number" && typeof f.y === "number" && typeof f.w === "number" && typeof f.h === "number") {
    e.frame = { x: f.x, y: f.y, w: f.w, h: f.h };
  }
  return e;
}

/** Reads a `get_window_state` reply: its elements, or why it failed. */
export function parseWindowState(reply: Reply): WindowState {
  if (isTransportFailure(reply)) return { elements: [], failed: `get_window_state failed (${reply.kind})` };
  if (reply.isError === true) return { elements: [], failed: firstText(reply) ?? "get_window_state returned an error" };
  const s = structuredOf(reply) ?? {};
  const state: WindowState = {
    elements: Array.isArray(s.elements) ? s.elements.map(element).filter((e): e is ElementInfo => e !== undefined) : [],
  };
  if (typeof s.pid === "number") state.pid = s.pid;
  if (typeof s.window_id === "number") state.window_id = s.window_id;
  if (typeof s.snapshot_id === "string") state.snapshot_id = s.snapshot_id;
  if (typeof s.returned_element_count === "number") state.returned = s.returned_element_count;
  if (typeof s.total_element_count === "number") state.total = s.total_element_count;
  if (typeof s.tree_markdown === "string") state.tree = s.tree_markdown;
  const img = (reply.content ?? []).find((b) => b.type === "image") as Record<string, unknown> | undefined;
  if (img && typeof img.data === "string") state.image = { data: img.data, mimeType: typeof img.mimeType === "string" ? img.mimeType : "image/png" };
  else if (typeof s.screenshot_png_b64 === "string") {
    state.image = { data: s.screenshot_png_b64, mimeType: typeof s.screenshot_mime_type === "string" ? s.screenshot_mime_type : "image/png" };
  }
  return state;
}
