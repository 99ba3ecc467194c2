import type { FrameSplice } from "#src/schema/bytes.js";

/** Looks up a frame's bytes, as base64, by its ref (`frames/<sha256>.png`). */
export type FrameLookup = (ref: string) => string;

/** Put the images cut out of one stored text field back, in order (FrameSplice semantics). */
export function restoreField(options: { text: string; field: string; splices?: readonly FrameSplice[] | undefined; frame?: FrameLookup | undefined }): string {
  const { field, splices, frame } = options;
  let text = options.text;
  for (const splice of splices ?? []) {
    if (splice.field !== field) continue;
    if (!frame) throw new Error(`cassette event needs frame ${splice.ref} but no frames were given`);
    text = text.slice(0, splice.at) + frame(splice.ref) + text.slice(splice.at);
  }
  return text;
}
