import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCassetteSync } from "#src/cassette/reader.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { SdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { openUpdate } from "./update-cassette.js";
import type { CliStepResult } from "./verify-cli-step.js";

describe("verify --update", () => {
  it("redacts the candidate's answers with the recording's --redact patterns (was: stored in clear)", { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cua-update-"));
    try {
      const recorded = readCassetteSync("test/fixtures/cassettes/replay-cli-gtk");
      recorded.header = { ...recorded.header, redaction: { enabled: true, patterns: ["SECRET[0-9]+"] } };
      const backend = { metadata: { driverVersion: "0.21.0" } } as unknown as SdkBackend;
      const out = path.join(dir, "new");
      const update = await openUpdate({ dir: out, force: false, recorded, backend, version: "0.21.0" });
      const event = recorded.events.find((e) => e.kind === "cli" && e.argv[0] === "call") as Extract<CassetteEvent, { kind: "cli" }>;
      const result = {
        argv: event.argv,
        stdin: Buffer.alloc(0),
        response: { stdout: Buffer.from('{"title":"token SECRET1234 here"}\n'), stderr: Buffer.alloc(0), exitCode: 0 },
        files: {},
        duration_ms: 1,
      } as unknown as CliStepResult;
      update.cli({ event, result });
      update.finish();
      const text = readFileSync(path.join(out, "cassette.jsonl"), "utf8");
      expect(text).not.toContain("SECRET1234");
      expect(text).toContain("«redacted:pattern:");
      expect(readCassetteSync(out).header.redaction).toEqual({ enabled: true, patterns: ["SECRET[0-9]+"] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
