import { describe, expect, it } from "vitest";
import { createRedactor, isPlaceholder, placeholderFor } from "#src/cassette/redact.js";
import { requestRedactor } from "./redact-request.js";
import type { ReplayRequest } from "./engine/request.js";

const header = { redaction: { enabled: true } } as Parameters<typeof requestRedactor>[0];
const call = (tool: string, args: Record<string, unknown>): ReplayRequest => ({ transport: "inprocess", method: "call", tool, args });

describe("redaction of text that is already a placeholder", () => {
  const placeholder = placeholderFor("text", "hello from cua-contract");

  it("recognises placeholders and nothing else", () => {
    expect(isPlaceholder(placeholder)).toBe(true);
    expect(isPlaceholder(`x${placeholder}`)).toBe(false);
    expect(isPlaceholder("«redacted:text:zzzzzzzz»")).toBe(false);
  });

  it("a request typing a placeholder keeps it unchanged (the recorded request matches itself)", () => {
    const redact = requestRedactor(header);
    const request = call("type_text", { pid: 1, text: placeholder });
    expect(redact(request).args).toEqual({ pid: 1, text: placeholder });
  });

  it("the live secret still becomes the recorded placeholder, before and after a placeholder was seen", () => {
    const redact = requestRedactor(header);
    expect(redact(call("type_text", { text: placeholder })).args).toEqual({ text: placeholder });
    expect(redact(call("type_text", { text: "hello from cua-contract" })).args).toEqual({ text: placeholder });
    expect(redact(call("type_text", { text: placeholder })).args).toEqual({ text: placeholder });
  });

  it("patterns and learned secrets never rewrite the inside of a placeholder", () => {
    const redactor = createRedactor({ enabled: true, patterns: ["[0-9a-f]{8}", "redacted"] });
    const text = `before ${placeholder} after deadbeef`;
    const out = redactor.text(text);
    expect(out).toContain(placeholder);
    expect(out).toBe(`before ${placeholder} after ${placeholderFor("pattern", "deadbeef")}`);
    redactor.learnFromCall("set_value", { value: placeholder });
    expect(redactor.text(JSON.stringify({ value: placeholder }))).toBe(JSON.stringify({ value: placeholder }));
  });
});
