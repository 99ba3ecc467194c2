/** The offset of the first byte that starts no valid UTF-8 sequence (overlong forms and surrogates too), or undefined. */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    if (need > 0) {
      const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      for (let k = 1; k <= need; k++) {
        const c = bytes[i + k];
        if (c === undefined) return i;
        if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
      }
    }
    i += need + 1;
  }
  return undefined;
}
