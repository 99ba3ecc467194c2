/** Every frame reference in an event (parsed or raw JSON), with the field that holds it. */
export function frameRefsOf(event: unknown): Array<{ field: string; ref: unknown }> {
  const out: Array<{ field: string; ref: unknown }> = [];
  if (typeof event !== "object" || event === null) return out;
  const e = event as { files?: unknown; frames?: unknown };
  if (typeof e.files === "object" && e.files !== null) {
    for (const [flag, file] of Object.entries(e.files)) {
      if (typeof file === "object" && file !== null && "ref" in file) out.push({ field: `files.${flag}.ref`, ref: file.ref });
    }
  }
  if (Array.isArray(e.frames)) {
    e.frames.forEach((splice: unknown, i) => {
      if (typeof splice === "object" && splice !== null && "ref" in splice) out.push({ field: `frames.${i}.ref`, ref: splice.ref });
    });
  }
  return out;
}
