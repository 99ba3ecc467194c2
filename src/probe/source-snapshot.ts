/**
 * A probe snapshot read from the driver's source rather than probed (docs/decisions/0255): the tool
 * roster cua's own release probe expects (`expected-tools.json` in trycua/cua), at a named commit.
 * It says which tools a driver built from that commit lists, per platform, and nothing about their
 * schemas: those are unknown, not absent, and `diff`/`gate` treat them so.
 */
import { z } from "zod";
import { PROBE_FORMAT, PROBE_VERSION, sourceLocation, type PlatformFacts, type ProbeSnapshot, type ProbeStep } from "#src/schema/probe-snapshot.js";

export const SOURCE_ROSTER_FORMAT = "cua-contract-source-roster";

const Commit = z.string().regex(/^[0-9a-f]{40}$/);

/** The roster as docs/reference/cua-driver-roster-source-bf3affc1.json holds it (unknown keys are kept). */
export const SourceRosterSchema = z
  .object({
    format: z.literal(SOURCE_ROSTER_FORMAT),
    version: z.literal(1),
    provenance: z.object({ source: z.literal("source"), repo: z.string(), path: z.string(), commit: Commit }).passthrough(),
    baseTools: z.array(z.string()).min(1),
    platformTools: z.record(z.string(), z.array(z.string())).default({}),
    toolCountByPlatform: z.record(z.string(), z.number().int().nonnegative()),
    outputSchemaCountByPlatform: z.record(z.string(), z.number().int().nonnegative()).default({}),
  })
  .passthrough();
export type SourceRoster = z.infer<typeof SourceRosterSchema>;

const READ = "read from source, not run";

/**
 * The probe snapshot of a roster for one platform: `list_tools` holds that platform's names
 * (base tools and the platform's own, sorted), `by_platform` every platform's counts. Throws when
 * the roster's own counts disagree with its lists.
 */
export function sourceSnapshotOf(roster: SourceRoster, options: { platform: string; at: string }): ProbeSnapshot {
  const { repo, path, commit } = roster.provenance;
  const byPlatform: Record<string, PlatformFacts> = {};
  for (const [platform, tools] of Object.entries(roster.toolCountByPlatform)) {
    const own = roster.platformTools[platform] ?? [];
    const listed = new Set([...roster.baseTools, ...own]).size;
    if (listed !== tools) throw new Error(`the roster lists ${listed} tools for ${platform}, its toolCountByPlatform says ${tools}`);
    const outputs = roster.outputSchemaCountByPlatform[platform];
    byPlatform[platform] = { tools, ...(outputs !== undefined ? { output_schemas: outputs } : {}), ...(own.length ? { only_here: [...own].sort() } : {}) };
  }
  if (!byPlatform[options.platform]) throw new Error(`the roster has no tool count for ${options.platform}`);
  const names = [...new Set([...roster.baseTools, ...(roster.platformTools[options.platform] ?? [])])].sort();
  const step = (name: ProbeStep["step"], status: ProbeStep["status"], message: string): ProbeStep => ({
    step: name,
    status,
    duration_ms: 0,
    message: `${READ}: ${message}`,
    from_source: true,
  });
  return {
    format: PROBE_FORMAT,
    version: PROBE_VERSION,
    probed_at: options.at,
    driver: { source: "source", location: sourceLocation(repo, commit, path), platform: options.platform, version: null, repo, commit },
    steps: [
      step("version", "unsupported", `the release that carries ${commit.slice(0, 8)} is not established`),
      step("list_tools", "succeeded", `the roster's ${names.length} tool names for ${options.platform}`),
      step("mcp_tools_list", "unsupported", "the roster names the tools only; their schemas, annotations and descriptions are unknown"),
      step("metadata", "unsupported", "no runtime answered; contract and protocol versions are unknown"),
    ],
    list_tools: names,
    by_platform: byPlatform,
  };
}
