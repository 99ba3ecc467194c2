import { z } from "zod";

export const DRIVER_CONTRACT_FORMAT = "cua-driver-contract";
export const DRIVER_CONTRACT_VERSION = 1;

/** Annotation hints a harness may rely on; each one expected true or false. */
export const ContractAnnotationsSchema = z
  .object({
    readOnlyHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .strict();
export type ContractAnnotations = z.infer<typeof ContractAnnotationsSchema>;

/** What a harness needs from one tool. */
export const ContractToolSchema = z
  .object({
    /** Capability tokens the tool must advertise (e.g. `accessibility.element_tokens`). */
    capabilities: z.array(z.string()).optional(),
    /** Input properties the harness sends; each must still be in the tool's inputSchema. */
    input: z.array(z.string()).optional(),
    annotations: ContractAnnotationsSchema.optional(),
    /** true: the tool must advertise an outputSchema. */
    output_schema: z.boolean().optional(),
  })
  .strict();
export type ContractTool = z.infer<typeof ContractToolSchema>;

/** What a harness needs from cua-driver: the gate checks a probe snapshot against it. */
export const DriverContractSchema = z
  .object({
    $schema: z.string().optional(),
    format: z.literal(DRIVER_CONTRACT_FORMAT),
    version: z.literal(DRIVER_CONTRACT_VERSION),
    name: z.string().min(1),
    description: z.string().optional(),
    driver: z
      .object({
        /** Versions the harness was built against: `0.21.x`, `0.21.0`, `>=0.21.0 <0.23.0`, `0.20.x || 0.21.x`. */
        versions: z.string().min(1),
        /** The MCP `initialize.protocolVersion` expected. */
        protocol_version: z.string().optional(),
        /** The driver contract version expected (`metadata.contract_version`). */
        contract_version: z.string().optional(),
        /** MCP eras the harness speaks on stdio: `legacy` (the `initialize` handshake), `2026-07-28`. */
        mcp_eras: z.array(z.string().min(1)).optional(),
      })
      .strict(),
    /** Required CLI argv: subcommand → flags or positional names it must accept (`call: ["--socket"]`). */
    argv: z.record(z.string(), z.array(z.string())).optional(),
    /** Required tools, by name. */
    tools: z.record(z.string(), ContractToolSchema),
    /**
     * Skill-pack resources the harness reads (`skills/list`, `resources/read`), by URI
     * (`skill://cua-driver/SKILL.md`); `digest` pins the bytes (`sha256:…`).
     */
    skills: z.record(z.string(), z.object({ digest: z.string().optional() }).strict()).optional(),
    /** The probe snapshot the contract was written from (relative to this file); the gate diffs against it. */
    baseline: z.string().optional(),
  })
  .strict();
/** A driver contract as `DriverContractSchema` parses it. */
export type DriverContract = z.infer<typeof DriverContractSchema>;
