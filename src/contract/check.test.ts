import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { binarySnapshot021, sdkSnapshot } from "../../test/helpers/probe-snapshots.js";
import { DriverContractSchema, type DriverContract } from "#src/schema/driver-contract.js";
import { checkContract, probeFailed } from "./check.js";
import { contractFromSnapshot } from "./contract-init.js";

const shipped = DriverContractSchema.parse(JSON.parse(readFileSync(new URL("../../contracts/drivers/cua-driver-0.21.json", import.meta.url), "utf8")));
const blocking = (c: DriverContract, s = binarySnapshot021()) =>
  checkContract({ contract: c, snapshot: s })
    .gaps.filter((g) => g.blocking)
    .map((g) => g.message);

describe("checkContract", () => {
  it("finds nothing missing when the 0.21.0 driver meets the shipped 0.21 contract", () => {
    const report = checkContract({ contract: shipped, snapshot: binarySnapshot021() });
    // The CLI does not tell the contract version (only the daemon's metadata does): noted, not failed.
    expect(report.gaps).toEqual([
      {
        kind: "contract_version",
        name: "contract_version",
        blocking: false,
        message: "driver contract version not checked: the metadata step is unsupported (the CLI has no metadata command)",
      },
    ]);
    expect(report.ok).toBe(true);
    expect(report.items.filter((i) => i.status !== "passed").map((i) => i.kind)).toEqual(["contract_version"]);
    expect(report.items.length).toBeGreaterThan(100);
  });

  it("names a missing CLI flag", () => {
    const snapshot = binarySnapshot021();
    const call = snapshot.manifest!.subcommands.find((s) => s.name === "call")!;
    call.args = call.args.filter((a) => a.name !== "--screenshot-out-file");
    expect(blocking(shipped, snapshot)).toEqual(["driver CLI is missing: call --screenshot-out-file"]);
  });

  it("names a missing tool, a gone input property and a missing capability", () => {
    const snapshot = binarySnapshot021();
    snapshot.tools_list!.tools = snapshot.tools_list!.tools.filter((t) => t.name !== "invoke_menu");
    const click = snapshot.tools_list!.tools.find((t) => t.name === "click")!;
    delete (click.inputSchema!.properties as Record<string, unknown>).element_token;
    click.capabilities = click.capabilities!.filter((c) => c !== "accessibility.element_tokens");
    expect(blocking(shipped, snapshot)).toEqual([
      'click: capability "accessibility.element_tokens" is missing',
      'click: input property "element_token" is gone',
      "driver tools are missing: invoke_menu",
    ]);
  });

  it("names the 0.28.2 idempotentHint flip and contract version, and notes the version series", () => {
    const report = checkContract({ contract: shipped, snapshot: sdkSnapshot("0.28.2") });
    expect(report.ok).toBe(false);
    expect(report.gaps.filter((g) => g.blocking).map((g) => g.message)).toEqual([
      "get_window_state: idempotentHint changed true → false (was relied on as repeatable)",
      "driver contract version is 0.8.0, the contract expects 0.7.0",
    ]);
    expect(report.gaps.find((g) => g.kind === "version")).toMatchObject({ blocking: false, message: "version 0.28.2 is outside 0.21.x" });
    expect(report.version).toBe("0.28.2");
  });

  it("says everything is present when only the version series differs", () => {
    const trimmed: DriverContract = {
      ...shipped,
      driver: { versions: "0.21.x" },
      tools: { click: shipped.tools.click!, list_windows: shipped.tools.list_windows! },
    };
    const report = checkContract({ contract: trimmed, snapshot: sdkSnapshot("0.28.2") });
    expect(report.ok).toBe(true);
    expect(report.gaps.filter((g) => g.kind !== "argv")).toEqual([
      { kind: "version", name: "version", blocking: false, message: "version 0.28.2 is outside 0.21.x; everything this contract needs is present" },
    ]);
  });

  it("leaves the CLI unverified (not failed) for an sdk probe, but fails it for a binary without a manifest", () => {
    const sdk = checkContract({ contract: shipped, snapshot: sdkSnapshot("0.21.0") });
    expect(sdk.ok).toBe(true);
    expect(sdk.items.filter((i) => i.kind === "argv").every((i) => i.status === "unverified")).toBe(true);
    const old = binarySnapshot021();
    delete old.manifest;
    old.steps[1] = { step: "manifest", status: "failed", duration_ms: 10_000, timed_out: true, message: "manifest did not finish within 10000 ms" };
    expect(blocking(shipped, old)[0]).toBe(
      "driver CLI could not be checked for mcp --socket: the manifest step failed (manifest did not finish within 10000 ms)",
    );
  });

  it("names annotations that are unset, and a required outputSchema that is missing", () => {
    const snapshot = sdkSnapshot("0.21.0");
    const zoom = snapshot.tools_list!.tools.find((t) => t.name === "list_windows")!;
    delete zoom.annotations!.readOnlyHint;
    delete zoom.outputSchema;
    expect(blocking(shipped, snapshot)).toEqual([
      "list_windows: readOnlyHint is unset, expected true (was relied on as read-only)",
      "list_windows: outputSchema is missing (the contract requires one)",
    ]);
  });

  it("reports a probe where no step succeeded", () => {
    const dead = sdkSnapshot("0.21.0");
    dead.steps = dead.steps.map((s) => ({ ...s, status: s.status === "succeeded" ? "failed" : s.status }));
    expect(probeFailed(dead)).toBe(true);
    expect(probeFailed(sdkSnapshot("0.21.0"))).toBe(false);
  });
});

describe("contractFromSnapshot", () => {
  it("writes a contract that its own driver meets, holding every tool, flag and hint", () => {
    const snapshot = binarySnapshot021();
    const contract = DriverContractSchema.parse(contractFromSnapshot({ snapshot }));
    expect(contract.driver).toEqual({ versions: "0.21.x", protocol_version: "2025-06-18" });
    expect(Object.keys(contract.tools)).toHaveLength(59);
    expect(contract.argv?.call).toEqual(["tool", "json-args", "--screenshot-out-file", "--socket"]);
    expect(contract.tools.get_window_state?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false });
    expect(checkContract({ contract, snapshot }).gaps).toEqual([]);
    const later = checkContract({ contract: contractFromSnapshot({ snapshot: sdkSnapshot("0.28.2") }), snapshot: sdkSnapshot("0.21.0") });
    expect(later.gaps.filter((g) => g.blocking).map((g) => g.message)).toContain("get_window_state: outputSchema is missing (the contract requires one)");
  });
});
