const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(text: string | number | undefined): string {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
