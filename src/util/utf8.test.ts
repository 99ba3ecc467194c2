import { describe, expect, it } from "vitest";
import { firstInvalidUtf8 } from "./utf8.js";

describe("firstInvalidUtf8", () => {
  it("accepts what TextEncoder writes and names the first bad byte otherwise", () => {
    expect(firstInvalidUtf8(new TextEncoder().encode("plain, é, 日本, 🙂"))).toBeUndefined();
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xff]))).toBe(1);
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xc3]))).toBe(1); // cut short
    expect(firstInvalidUtf8(new Uint8Array([0xc0, 0xaf]))).toBe(0); // overlong
    expect(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(firstInvalidUtf8(new Uint8Array([0x41, 0xe6, 0x97, 0x41]))).toBe(1); // a Latin-1 byte inside ASCII
  });
});
