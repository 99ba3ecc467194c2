import { readFileSync } from "node:fs";
import { DriverManifestSchema, InitializeResultSchema, ToolsListResultSchema, type ProbeSnapshot } from "#src/schema/probe-snapshot.js";

const dir = new URL("../fixtures/tool-lists/", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, dir), "utf8");

export const toolsList = (version: string) => ToolsListResultSchema.parse(JSON.parse(read(`tools-list-${version}.json`)));

export function metadataOf(version: string): Record<string, unknown> {
  if (version === "0.21.0")
    return { driverVersion: "0.21.0", contractVersion: "0.7.0", toolsListSchemaVersion: "1", capabilityVersion: "1", mcpProtocolVersion: "2025-06-18" };
  const line = read("metadata-by-version.jsonl")
    .split("\n")
    .find((l) => l.includes(`"driverVersion":"${version}"`));
  if (!line) throw new Error(`no metadata for ${version}`);
  const { pid: _pid, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return rest;
}

/** What `probe --sdk VERSION` records, assembled from the captured runtime output of that version. */
export function sdkSnapshot(version: string): ProbeSnapshot {
  const na = { status: "unsupported" as const, duration_ms: 0, message: "no CLI" };
  return {
    format: "cua-probe",
    version: 1,
    probed_at: "2026-11-29T00:00:00.000Z",
    driver: { source: "sdk", location: `sdk:@trycua/cua-driver@${version}`, platform: "linux-x64", version },
    steps: [
      { step: "version", ...na },
      { step: "manifest", ...na },
      { step: "list_tools", ...na },
      { step: "mcp_initialize", ...na },
      { step: "mcp_tools_list", status: "succeeded", duration_ms: 50 },
      { step: "status", ...na },
      { step: "metadata", status: "succeeded", duration_ms: 1 },
    ],
    tools_list: toolsList(version),
    metadata: metadataOf(version),
  };
}

/**
 * A binary probe of 0.21.0 (synthetic: the CLI outputs are reconstructed from source, the tool
 * list is the captured one).
 */
export function binarySnapshot021(): ProbeSnapshot {
  const ok = (step: ProbeSnapshot["steps"][number]["step"]) => ({ step, status: "succeeded" as const, duration_ms: 5 });
  const initialize = JSON.parse(read("initialize-0.21.0.reconstructed.jsonl").trim()) as { result: unknown };
  return {
    format: "cua-probe",
    version: 1,
    probed_at: "2026-11-29T00:00:00.000Z",
    driver: { source: "synthetic", location: "/opt/cua-driver/cua-driver", platform: "linux-x64", version: "0.21.0" },
    steps: [
      ok("version"),
      ok("manifest"),
      ok("list_tools"),
      ok("mcp_initialize"),
      ok("mcp_tools_list"),
      ok("status"),
      { step: "metadata", status: "unsupported", duration_ms: 0, message: "the CLI has no metadata command" },
    ],
    version_output: read("version-0.21.0.reconstructed.txt"),
    manifest: DriverManifestSchema.parse(JSON.parse(read("manifest-0.21.0.reconstructed.txt"))),
    list_tools: read("list-tools-0.21.0.reconstructed.txt")
      .split("\n")
      .map((l) => l.split(":")[0]!.trim())
      .filter(Boolean),
    initialize: InitializeResultSchema.parse(initialize.result),
    tools_list: toolsList("0.21.0"),
    status: { running: false, exit_code: 1, stdout: "", stderr: "Cua Driver daemon is not running\n" },
  };
}
