import { UserError, isUserError } from "#src/errors.js";
import {
  DriverMetadataSchema,
  PROBE_FORMAT,
  PROBE_VERSION,
  ToolsListResultSchema,
  type ProbeSnapshot,
  type ProbeStep,
  type ToolsListResult,
} from "#src/schema/probe-snapshot.js";
import { loadSdk, type LoadSdkOptions } from "#src/runtime/load.js";
import type { SdkDriver } from "#src/runtime/sdk-types.js";
import { DEFAULT_STEP_TIMEOUT_MS } from "./run-binary.js";
import { recordStep, runStep, type StepOutcome } from "./step.js";
import { addModernEra, type ModernEraFindings, probeModernEra, type RawAnswer } from "#src/transports/mcp/probe-eras.js";

/** Opens one MCP connection of a runtime: a request line in, its answer line out (none for a notification). */
export type SdkMcpLines = (driver: SdkDriver) => Promise<(line: string) => Promise<string | undefined>>;

const NO_CLI = "the published runtime has no CLI; probe a cua-driver binary with --driver for this step";

/**
 * Probes the published runtime `@trycua/cua-driver@VERSION` in process: `listToolsJson()` (the
 * same document as MCP `tools/list`, minus the CLI-host tool `check_for_update`) and `metadata()`.
 */
export async function probeSdk(options: {
  version: string;
  timeoutMs?: number | undefined;
  load?: LoadSdkOptions;
  now?: () => Date;
  /** The flag the version came from, named in errors (default `--sdk`). */
  flag?: "--sdk" | "--driver";
  /** A runtime instance already created at `version` (the recorder's), asked instead of a new one. */
  driver?: SdkDriver;
  /**
   * One MCP connection of the runtime (transports/sdk/probe-lines.ts), asked for the modern era
   * after `metadata`; without it the probe records no eras.
   */
  mcpLines?: SdkMcpLines;
}): Promise<ProbeSnapshot> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const module = await loadSdk(options.version, options.load).catch((error: unknown) => {
    // The loader names its flag --driver (as in `--driver sdk:0.21.0`); name the one the user typed.
    if (isUserError(error) && error.field === "--driver" && (options.flag ?? "--sdk") === "--sdk") {
      throw new UserError(error.message.replace(/^--driver: /, "").replace(/--driver sdk:/g, "--sdk "), {
        code: error.code,
        field: "--sdk",
        exitCode: error.exitCode,
      });
    }
    throw error;
  });
  const steps: ProbeStep[] = [];
  for (const step of ["version", "manifest", "list_tools"] as const) steps.push({ step, status: "unsupported", duration_ms: 0, message: NO_CLI });
  let driver: SdkDriver | undefined = options.driver;
  const withDeadline = async <T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<StepOutcome<T>> => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<StepOutcome<T>>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ status: "failed", timedOut: true, message: `${what} did not answer within ${timeoutMs} ms` });
      }, timeoutMs);
    });
    try {
      return await Promise.race([call(controller.signal).then((value): StepOutcome<T> => ({ status: "succeeded", value })), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
  steps.push({
    step: "mcp_initialize",
    status: "unsupported",
    duration_ms: 0,
    message: "the runtime is called in process; its metadata() carries the MCP protocol version",
  });
  const toolsList = await runStep("mcp_tools_list", steps, async (): Promise<StepOutcome<ToolsListResult>> => {
    driver ??= await CuaDriverCreate(module);
    const outcome = await withDeadline("listToolsJson()", (signal) => driver!.listToolsJson({ signal }));
    if (outcome.status !== "succeeded") return outcome;
    return { status: "succeeded", value: ToolsListResultSchema.parse(JSON.parse(outcome.value)) };
  });
  steps.push({ step: "status", status: "unsupported", duration_ms: 0, message: "the runtime is embedded; there is no daemon to ask" });
  const metadata = await runStep("metadata", steps, async () => {
    driver ??= await CuaDriverCreate(module);
    const outcome = await withDeadline("metadata()", (signal) => driver!.metadata({ signal }));
    if (outcome.status !== "succeeded") return outcome;
    return { status: "succeeded" as const, value: DriverMetadataSchema.parse(outcome.value) };
  });
  const modern =
    driver && options.mcpLines
      ? await probeSdkEras(driver, options.mcpLines, steps, withDeadline).catch((error: unknown) => eraFailure(error, steps))
      : undefined;
  const snapshot: ProbeSnapshot = {
    format: PROBE_FORMAT,
    version: PROBE_VERSION,
    probed_at: (options.now?.() ?? new Date()).toISOString(),
    driver: {
      source: "sdk",
      location: `sdk:@trycua/cua-driver@${options.version}`,
      platform: `${process.platform}-${process.arch}`,
      version: metadata?.driverVersion ?? null,
    },
    steps,
  };
  if (toolsList) snapshot.tools_list = toolsList;
  if (metadata) {
    const { pid: _pid, ...stable } = metadata as Record<string, unknown>;
    snapshot.metadata = DriverMetadataSchema.parse(stable);
  }
  if (modern) addModernEra(snapshot, modern, metadata?.mcpProtocolVersion !== undefined);
  return snapshot;
}

async function CuaDriverCreate(module: Awaited<ReturnType<typeof loadSdk>>): Promise<SdkDriver> {
  return await module.CuaDriver.create();
}

// the modern era as a client of `serve --driver sdk:V --transport mcp` sees it
// each request under the probe's deadline, like every other step; an answer that is not JSON fails its own step
async function probeSdkEras(
  driver: SdkDriver,
  mcpLines: SdkMcpLines,
  steps: ProbeStep[],
  withDeadline: <T>(what: string, call: (signal: AbortSignal) => Promise<T>) => Promise<StepOutcome<T>>,
): Promise<ModernEraFindings> {
  const send = await mcpLines(driver);
  let id = 1;
  const findings = await probeModernEra(async (method, params): Promise<RawAnswer> => {
    const line = JSON.stringify({ jsonrpc: "2.0", id: id++, method, params });
    const sent = await withDeadline(method, () => send(line));
    if (sent.status !== "succeeded") return { failed: sent.message, ...(sent.timedOut ? { timedOut: true } : {}) };
    if (sent.value === undefined) return { failed: `${method} got no answer` };
    let msg: { result?: unknown; error?: { code?: unknown } };
    try {
      msg = JSON.parse(sent.value) as typeof msg;
    } catch {
      return { failed: `${method} answered with a line that is not JSON` };
    }
    return msg.error ? { error: msg.error } : { result: msg.result };
  });
  for (const s of findings.steps) recordStep(s.step, steps, s.outcome, s.ms);
  return findings;
}

function eraFailure(error: unknown, steps: ProbeStep[]): undefined {
  const message = `the runtime's MCP connection failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
  recordStep("mcp_discover", steps, { status: "failed", message }, 0);
  return undefined;
}
