/**
 * Reading a cassette for a report must not inflate every image into base64 text just to find it:
 * frames are restored as short markers, collected, then replaced by a placeholder.
 */
const MARKER = /@@frame:(frames\/[0-9a-f]{64}\.(?:png|jpg))@@/g;

export const frameMarker = (ref: string): string => `@@frame:${ref}@@`;

/** The frame refs in a text, in order, and the text with each marker replaced by `<image>`. */
export function takeFrameMarkers(text: string): { refs: string[]; text: string } {
  const refs: string[] = [];
  if (!text.includes("@@frame:")) return { refs, text };
  const out = text.replace(MARKER, (_m, ref: string) => {
    refs.push(ref);
    return "<image>";
  });
  return { refs, text: out };
}
