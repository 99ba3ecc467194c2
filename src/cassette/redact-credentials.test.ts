import { describe, expect, it } from "vitest";
import type { CassetteEventInput } from "./writer.js";
import type { RecordingSink } from "./recording-sink.js";
import { createRedactor, placeholderFor } from "./redact.js";
import { openMcpStreamRecording } from "#src/transports/mcp/stream-recording.js";
import { buildCliEvent } from "#src/transports/cli/recorded-call.js";
import { createUnredactor } from "#src/verify/secrets.js";

// find_credentials and type_secret (the roster read from source at trycua/cua bf3affc1): a credential
// handle is opaque, yet it stands for a secret, so it is redacted like typed text.
const HANDLE = "cred-7f3a9c21-handle";
const OTHER = "cred-0b55e810-handle";

describe("credential handles are redacted like typed text", () => {
  it("learned from a find_credentials result (at any depth) and a type_secret call, then replaced wherever they show up; only theirs", () => {
    const r = createRedactor({ enabled: true });
    r.learnFromResult("find_credentials", { credentials: [{ credential_handle: OTHER, origin: "https://example.com" }], handle: HANDLE });
    r.learnFromCall("type_secret", JSON.stringify({ handle: "cred-typed-only", field: "password", target: { pid: 1 } }));
    const stored = r.text(JSON.stringify({ a: HANDLE, b: `echo ${OTHER}`, c: "cred-typed-only", origin: "https://example.com" }));
    expect(JSON.parse(stored)).toEqual({
      a: placeholderFor("credential", HANDLE),
      b: `echo ${placeholderFor("credential", OTHER)}`,
      c: placeholderFor("credential", "cred-typed-only"),
      // a descriptor is not a secret: only handles are learned
      origin: "https://example.com",
    });
    expect(placeholderFor("credential", HANDLE)).toMatch(/^«redacted:credential:[0-9a-f]{8}»$/);
    // nothing is learned with redaction off, nor from another tool's handle fields
    const off = createRedactor({ enabled: false });
    off.learnFromResult("find_credentials", { handle: HANDLE });
    expect(off.text(JSON.stringify({ a: HANDLE }))).toBe(JSON.stringify({ a: HANDLE }));
    const on = createRedactor({ enabled: true });
    on.learnFromResult("get_config", { handle: HANDLE });
    on.learnFromCall("click", { handle: HANDLE });
    expect(on.text(JSON.stringify({ a: HANDLE }))).toBe(JSON.stringify({ a: HANDLE }));
  });

  it("an MCP stream stores neither the handles find_credentials returns nor the one type_secret spends", () => {
    const events: CassetteEventInput[] = [];
    const sink: RecordingSink = { dir: "/nowhere", append: (e) => events.push(e) - 1, putFrame: () => ({}) as never, header: () => undefined, close: () => {} };
    const rec = openMcpStreamRecording({ sink, redactor: createRedactor({ enabled: true }), clock: () => 0, stream: 1, argv: ["mcp"] });
    rec.line("c2s", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "find_credentials", arguments: { target: { pid: 1 } } } }));
    const found = { credentials: [{ handle: HANDLE, label: "example.com" }] };
    rec.line("s2c", JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: JSON.stringify(found) }], structuredContent: found } }));
    rec.line(
      "c2s",
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "type_secret", arguments: { handle: HANDLE, field: "password" } } }),
    );
    const lines = events.filter((e) => e.kind === "mcp").map((e) => (e as { line: string }).line);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toContain(HANDLE);
    expect(lines[1]).toContain(placeholderFor("credential", HANDLE));
    expect(lines[2]).toContain(`"handle":"${placeholderFor("credential", HANDLE)}"`);
    expect(lines[2]).toContain('"field":"password"');
  });

  it("a per-call CLI recording of find_credentials stores the placeholder, and verify --secret gives the handle back", () => {
    const found = JSON.stringify({ credentials: [{ handle: HANDLE }] });
    const event = buildCliEvent({
      call: {
        argv: ["call", "find_credentials", "{}"],
        stdin: Buffer.alloc(0),
        stdout: Buffer.from(found),
        stderr: Buffer.alloc(0),
        exitCode: 0,
        t_ms: 0,
        duration_ms: 1,
      },
      redactor: createRedactor({ enabled: true }),
      putFrame: () => {
        throw new Error("no frames expected");
      },
    });
    const text = JSON.stringify(event);
    expect(text).not.toContain(HANDLE);
    expect(text).toContain(placeholderFor("credential", HANDLE));
    expect(createUnredactor([HANDLE]).apply(placeholderFor("credential", HANDLE))).toBe(HANDLE);
  });
});
