import { describe, expect, it } from "vitest";
import { sdkSnapshot } from "../../../test/helpers/probe-snapshots.js";
import type { DriverContract } from "#src/schema/driver-contract.js";
import { diffSurfaces } from "#src/contract/diff.js";
import { surfaceOfSnapshot } from "#src/contract/surface.js";
import { diffEras, diffSkills } from "#src/contract/era-diff.js";
import { contractItemOf, inContractScope } from "./scope.js";

const contract = { tools: { click: {}, get_window_state: {} } } as unknown as DriverContract;
const diff = (from: string, to: string) => diffSurfaces(surfaceOfSnapshot(sdkSnapshot(from)), surfaceOfSnapshot(sdkSnapshot(to))).changes;

describe("what a change reaches", () => {
  it("an adapter change counts when its operations name a contract tool, on either side (real 0.21.0 → 0.20.0)", () => {
    const adapters = diff("0.21.0", "0.20.0").filter((c) => c.kind.startsWith("adapter_"));
    const gone = adapters.find((c) => c.path === "/enforcement_adapters/computer_history")!;
    expect(gone.covers).toEqual(["history_query", "history_status"]);
    expect(inContractScope(gone, contract)).toBe(false);
    expect(inContractScope({ ...gone, covers: ["click", "drag"] }, contract)).toBe(true);
    expect(inContractScope({ severity: "behavioural", kind: "contract_version_changed", message: "x" }, contract)).toBe(true);
    expect(inContractScope({ severity: "breaking", kind: "tool_removed", tool: "zoom", message: "x" }, contract)).toBe(false);
    const vocabulary = { severity: "behavioural", kind: "tools_list_version_changed", path: "/capability_version", message: "x" } as const;
    expect(inContractScope(vocabulary, contract)).toBe(false);
    expect(inContractScope(vocabulary, { tools: { click: { capabilities: ["input.delivery_mode"] } } } as unknown as DriverContract)).toBe(true);
  });

  it("an era or a skill resource going away counts when the contract names it, a changed digest when it pins it", () => {
    const named = {
      driver: { versions: "0.28.x", mcp_eras: ["2026-07-28"] },
      tools: {},
      skills: { "skill://cua-driver/SKILL.md": { digest: "sha256:aa" }, "skill://cua-driver/LINUX.md": {} },
    } as unknown as DriverContract;
    const bare = { driver: { versions: "0.28.x" }, tools: {} } as unknown as DriverContract;
    const era = diffEras(["legacy", "2026-07-28"], ["legacy"])[0]!;
    expect([inContractScope(era, named), inContractScope(era, bare)]).toEqual([true, false]);
    const catalogue = (skillDigest: string, linux: boolean) => ({
      skills: [],
      resources: [{ uri: "skill://cua-driver/SKILL.md", digest: skillDigest }, ...(linux ? [{ uri: "skill://cua-driver/LINUX.md", digest: "sha256:bb" }] : [])],
    });
    const [digest, gone] = diffSkills(catalogue("sha256:aa", true), catalogue("sha256:cc", false));
    expect([digest?.kind, gone?.kind]).toEqual(["digest_changed", "resource_removed"]);
    expect([inContractScope(digest!, named), inContractScope(digest!, bare)]).toEqual([true, false]);
    const unpinned = diffSkills(
      { skills: [], resources: [{ uri: "skill://cua-driver/LINUX.md", digest: "sha256:bb" }] },
      { skills: [], resources: [{ uri: "skill://cua-driver/LINUX.md", digest: "sha256:dd" }] },
    )[0]!;
    expect(inContractScope(unpinned, named)).toBe(false);
    expect([inContractScope(gone!, named), inContractScope(gone!, bare)]).toEqual([true, false]);
    const failed = new Map(
      ["contract:mcp_era:2026-07-28", "contract:skill_digest:skill://cua-driver/SKILL.md", "contract:skill:skill://cua-driver/LINUX.md"].map((id) => [
        id,
        { id, source: "contract" as const, message: id },
      ]),
    );
    expect([era, digest!, gone!].map((c) => contractItemOf(c, failed)?.id)).toEqual([...failed.keys()]);
  });

  it("a diff change is the same fact as the failed contract item it names (real 0.21.0 → 0.28.2)", () => {
    const failed = new Map(
      ["contract:annotation:get_window_state:idempotentHint", "contract:contract_version:contract_version"].map((id) => [
        id,
        { id, source: "contract" as const, message: id },
      ]),
    );
    const changes = diff("0.21.0", "0.28.2").filter((c) => c.severity === "breaking" || c.severity === "behavioural");
    expect(changes.map((c) => [c.kind, contractItemOf(c, failed)?.id ?? null])).toEqual([
      ["alternative_removed", null],
      ["annotation_changed", "contract:annotation:get_window_state:idempotentHint"],
      ["contract_version_changed", "contract:contract_version:contract_version"],
    ]);
  });
});
