import { z } from "zod";

export const PROBE_FORMAT = "cua-probe";
export const PROBE_VERSION = 1;

/** The read-only steps a probe runs, in order. */
export const ProbeStepNameSchema = z.enum([
  "version",
  "manifest",
  "list_tools",
  "mcp_initialize",
  "mcp_tools_list",
  "status",
  "metadata",
  "mcp_discover",
  "mcp_skills",
]);
export type ProbeStepName = z.infer<typeof ProbeStepNameSchema>;

/** `unsupported`: the driver (or this kind of probe) has no such step; a finding, not a crash. */
export const ProbeStepStatusSchema = z.enum(["succeeded", "failed", "unsupported"]);
export type ProbeStepStatus = z.infer<typeof ProbeStepStatusSchema>;

export const ProbeStepSchema = z
  .object({
    step: ProbeStepNameSchema,
    status: ProbeStepStatusSchema,
    duration_ms: z.number().nonnegative(),
    /** What happened, in words (the error, the timeout, why the step does not apply). */
    message: z.string().optional(),
    timed_out: z.boolean().optional(),
    /** The step was not run: what it holds was read from the driver's source (a `source` snapshot). */
    from_source: z.literal(true).optional(),
  })
  .strict();
export type ProbeStep = z.infer<typeof ProbeStepSchema>;

export const ManifestArgSchema = z.object({ name: z.string(), type: z.string().optional(), description: z.string().optional() }).passthrough();

export const ManifestSubcommandSchema = z
  .object({ name: z.string(), description: z.string().optional(), args: z.array(ManifestArgSchema).default([]) })
  .passthrough();

/** `cua-driver manifest` (docs/reference/cua-driver-contract.md §1.3); unknown keys are kept. */
export const DriverManifestSchema = z
  .object({
    schema_version: z.string().optional(),
    binary_version: z.string().optional(),
    binary_path: z.string().optional(),
    mcp_invocation: z
      .object({ command: z.string().optional(), args: z.array(z.string()) })
      .passthrough()
      .optional(),
    subcommands: z.array(ManifestSubcommandSchema).default([]),
  })
  .passthrough();
export type DriverManifest = z.infer<typeof DriverManifestSchema>;

export const ToolAnnotationsSchema = z
  .object({
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .passthrough();

const JsonObject = z.record(z.string(), z.unknown());

/** One `tools/list` entry with cua-driver's extensions (docs/reference/cua-driver-contract.md §2.4). */
export const ToolEntrySchema = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    inputSchema: JsonObject.optional(),
    outputSchema: JsonObject.optional(),
    annotations: ToolAnnotationsSchema.optional(),
    capabilities: z.array(z.string()).optional(),
    risk: z
      .object({
        class: z.string(),
        enforcement: z.string().optional(),
        operation_sensitive: z.boolean().optional(),
        version: z.string().optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type ToolEntry = z.infer<typeof ToolEntrySchema>;

/** The `tools/list` result (or the SDK's `listToolsJson()`, the same document). */
export const ToolsListResultSchema = z
  .object({
    tools: z.array(ToolEntrySchema),
    capability_version: z.string().optional(),
    schema_version: z.string().optional(),
    enforcement_adapters: z.array(JsonObject).optional(),
  })
  .passthrough();
export type ToolsListResult = z.infer<typeof ToolsListResultSchema>;

export const InitializeResultSchema = z
  .object({
    protocolVersion: z.string(),
    serverInfo: z.object({ name: z.string(), version: z.string().optional() }).passthrough().optional(),
    capabilities: JsonObject.optional(),
    instructions: z.string().optional(),
  })
  .passthrough();
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** The MCP 2026-07-28 era's name, as `server/discover` lists it (docs/eras.md). */
export const MODERN_MCP_ERA = "2026-07-28";

/** The `server/discover` result of a driver that speaks the modern era; unknown keys are kept. */
export const DiscoverResultSchema = z
  .object({
    supportedVersions: z.array(z.string()),
    capabilities: JsonObject.optional(),
    instructions: z.string().optional(),
  })
  .passthrough();
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

/**
 * The skills and resources a modern-era driver serves: each skill's URI (and its frontmatter
 * name and version), each resource's URI with its byte size and `sha256:` digest (the digest is
 * what `skills/list` lists for it).
 */
export const SkillCatalogueSchema = z
  .object({
    skills: z.array(z.object({ uri: z.string(), name: z.string().optional(), version: z.string().optional() }).strict()),
    resources: z.array(z.object({ uri: z.string(), size: z.number().int().nonnegative().optional(), digest: z.string().optional() }).strict()),
  })
  .strict();
export type SkillCatalogue = z.infer<typeof SkillCatalogueSchema>;

/** The runtime's `metadata()` (SDK) or the daemon `metadata` result. */
export const DriverMetadataSchema = z
  .object({
    driverVersion: z.string().optional(),
    contractVersion: z.string().optional(),
    toolsListSchemaVersion: z.string().optional(),
    capabilityVersion: z.string().optional(),
    mcpProtocolVersion: z.string().optional(),
  })
  .passthrough();
export type DriverMetadata = z.infer<typeof DriverMetadataSchema>;

export const DaemonStatusSchema = z.object({ running: z.boolean(), exit_code: z.number().int().nullable(), stdout: z.string(), stderr: z.string() }).strict();
export type DaemonStatus = z.infer<typeof DaemonStatusSchema>;

/** Where a snapshot's driver came from (docs/decisions/0255 for `source`). */
export const SnapshotSourceSchema = z.enum(["binary", "sdk", "synthetic", "source"]);
export type SnapshotSource = z.infer<typeof SnapshotSourceSchema>;

/** A commit of the driver's repository: 40 hex digits. */
const CommitSchema = z.string().regex(/^[0-9a-f]{40}$/, "a commit is 40 lowercase hex digits");

/** What a source snapshot's roster says of one platform: how many tools it lists and how many carry an outputSchema. */
export const PlatformFactsSchema = z
  .object({
    tools: z.number().int().nonnegative(),
    output_schemas: z.number().int().nonnegative().optional(),
    /** Tools listed on this platform only. */
    only_here: z.array(z.string()).optional(),
  })
  .strict();
export type PlatformFacts = z.infer<typeof PlatformFactsSchema>;

/** A capability snapshot of one driver: what every read-only probe step saw. */
export const ProbeSnapshotSchema = z
  .object({
    format: z.literal(PROBE_FORMAT),
    version: z.literal(PROBE_VERSION),
    probed_at: z.string(),
    driver: z
      .object({
        /**
         * `binary`: a cua-driver executable; `sdk`: the npm runtime; `synthetic`: hand-built;
         * `source`: read from the driver's source at a commit, never run (then `repo` and `commit`
         * are required, and `location` is `source:<repo>@<commit>:<path>`).
         */
        source: SnapshotSourceSchema,
        /** A path, `sdk:@trycua/cua-driver@0.21.0`, or `source:trycua/cua@<commit>:<path>`. */
        location: z.string(),
        platform: z.string(),
        /** Parsed version, e.g. "0.21.0"; null when no step revealed it. */
        version: z.string().nullable(),
        /** The repository a `source` snapshot was read from (`trycua/cua`). */
        repo: z
          .string()
          .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "a repository is owner/name")
          .optional(),
        /** The commit a `source` snapshot was read at. */
        commit: CommitSchema.optional(),
      })
      .strict()
      .superRefine((driver, ctx) => {
        if (driver.source !== "source") return;
        for (const key of ["repo", "commit"] as const) {
          if (driver[key] === undefined) ctx.addIssue({ code: "custom", path: [key], message: `a source snapshot names its ${key}` });
        }
        const prefix = `source:${driver.repo}@${driver.commit}:`;
        if (driver.repo && driver.commit && !driver.location.startsWith(prefix))
          ctx.addIssue({ code: "custom", path: ["location"], message: `a source snapshot's location is ${prefix}<path>` });
      }),
    steps: z.array(ProbeStepSchema),
    /** Exact `--version` output. */
    version_output: z.string().optional(),
    manifest: DriverManifestSchema.optional(),
    /**
     * `list-tools` names, in the order printed; for a `source` snapshot the roster's names (the
     * source gives names only: the tools' schemas are unknown, not absent).
     */
    list_tools: z.array(z.string()).optional(),
    initialize: InitializeResultSchema.optional(),
    tools_list: ToolsListResultSchema.optional(),
    metadata: DriverMetadataSchema.optional(),
    status: DaemonStatusSchema.optional(),
    /**
     * The MCP eras the driver speaks on stdio: `legacy` (the `initialize` handshake) and each
     * version `server/discover` offers. Absent when no modern era answered (a driver before 0.28
     * answers `server/discover` with -32601) or the probe did not ask.
     */
    mcp_eras: z.array(z.string()).optional(),
    discover: DiscoverResultSchema.optional(),
    skills: SkillCatalogueSchema.optional(),
    /**
     * Per platform (`darwin`, `linux`, `win32`), what a source snapshot's roster says: its tool
     * count, its outputSchema count, the tools listed there only. `list_tools` holds the roster of
     * `driver.platform`.
     */
    by_platform: z.record(z.string(), PlatformFactsSchema).optional(),
  })
  .strict();
/** A probe snapshot as `ProbeSnapshotSchema` parses it. */
export type ProbeSnapshot = z.infer<typeof ProbeSnapshotSchema>;

/** `source:trycua/cua@<commit>:<path>`: where a source snapshot was read. */
export function sourceLocation(repo: string, commit: string, file: string): string {
  return `source:${repo}@${commit}:${file}`;
}

/**
 * How a snapshot's driver is named where a probe's would be: a source snapshot says it was read from
 * source at a commit and never run; others are `<source> <location>`.
 */
export function describeDriver(driver: ProbeSnapshot["driver"]): string {
  if (driver.source !== "source") return `${driver.source} ${driver.location}`;
  return `read from source ${driver.repo}@${(driver.commit ?? "").slice(0, 8)}, not a probe of a binary: ${driver.location}`;
}

/** A short label for a source snapshot (`source trycua/cua@bf3affc1`), e.g. a row of `gate --matrix`. */
export function sourceLabel(driver: ProbeSnapshot["driver"]): string {
  return `source ${driver.repo}@${(driver.commit ?? "").slice(0, 8)}`;
}

/** Whether a snapshot was read from source: its tools are names only, their schemas unknown. */
export function isSourceSnapshot(snapshot: Pick<ProbeSnapshot, "driver">): boolean {
  return snapshot.driver.source === "source";
}
