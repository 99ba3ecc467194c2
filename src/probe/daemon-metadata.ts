import net from "node:net";
import { DriverMetadataSchema, type DaemonStatus, type DriverMetadata } from "#src/schema/probe-snapshot.js";
import { socketOfStatus } from "#src/driver/messages.js";
import type { StepOutcome } from "./step.js";

/** The socket `cua-driver status` names (`  socket: <path>`), if any. */
export function socketFromStatus(status: DaemonStatus | undefined): string | undefined {
  return status?.running ? socketOfStatus(status.stdout) : undefined;
}

/**
 * Asks a running daemon for its metadata (`{"method":"metadata"}`, docs/reference/cua-driver-contract.md §1.8): read-only,
 * and the only place a binary tells its contract version.
 */
export function daemonMetadata(options: { socket: string; timeoutMs: number }): Promise<StepOutcome<DriverMetadata>> {
  return new Promise((resolve) => {
    let buffered = "";
    let settled = false;
    const finish = (outcome: StepOutcome<DriverMetadata>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      resolve(outcome);
    };
    const conn = net.createConnection(options.socket);
    const timer = setTimeout(
      () => finish({ status: "failed", timedOut: true, message: `the daemon on ${options.socket} did not answer metadata within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    );
    conn.setEncoding("utf8");
    conn.on("connect", () => conn.write(`${JSON.stringify({ method: "metadata" })}\n`));
    // `status` named a socket nobody listens on (a daemon that has gone, or status output that is
    // stale): there is no daemon to ask, as when status says none runs, so this is not a failure.
    conn.on("error", (error: NodeJS.ErrnoException) =>
      finish(
        error.code === "ENOENT" || error.code === "ECONNREFUSED"
          ? { status: "unsupported", message: `no daemon answers on ${options.socket} (${error.code}), so there is no metadata to read` }
          : { status: "failed", message: `cannot reach the daemon on ${options.socket} (${error.message})` },
      ),
    );
    conn.on("close", () => finish({ status: "failed", message: `the daemon on ${options.socket} closed the connection without an answer` }));
    conn.on("data", (chunk: string) => {
      buffered += chunk;
      const nl = buffered.indexOf("\n");
      if (nl < 0) return;
      finish(parseAnswer(buffered.slice(0, nl)));
    });
  });
}

function parseAnswer(line: string): StepOutcome<DriverMetadata> {
  let answer: { ok?: unknown; result?: Record<string, unknown>; error?: unknown };
  try {
    answer = JSON.parse(line) as typeof answer;
  } catch {
    return { status: "failed", message: `the daemon answered metadata with non-JSON: ${JSON.stringify(line.slice(0, 80))}` };
  }
  if (answer.ok !== true || !answer.result) return { status: "failed", message: `the daemon refused metadata: ${JSON.stringify(answer.error ?? answer)}` };
  const r = answer.result;
  const pick = (key: string) => (typeof r[key] === "string" ? { [key]: r[key] } : {});
  const rename = (from: string, to: string) => (typeof r[from] === "string" ? { [to]: r[from] } : {});
  return {
    status: "succeeded",
    value: DriverMetadataSchema.parse({
      ...rename("driver_version", "driverVersion"),
      ...rename("contract_version", "contractVersion"),
      ...rename("tools_list_schema_version", "toolsListSchemaVersion"),
      ...rename("capability_version", "capabilityVersion"),
      ...rename("mcp_protocol_version", "mcpProtocolVersion"),
      ...pick("embedded"),
    }),
  };
}
