import { renderDescribe, renderListTools } from "../../transports/sdk/render-static.js";
import type { RecordedExchange } from "./exchanges.js";
import { rawMember } from "./raw-json.js";
import type { ReplayRequest } from "./request.js";

/**
 * Answers for finite subcommands the cassette did not record but can still answer exactly:
 * `--version` from the header, `list-tools` and `describe` from a recorded `tools/list` result,
 * printed the way the 0.21 binary prints them (CONTRACT.md §1.2, §1.4, §1.5).
 */
export function staticCliAnswer(options: {
  request: ReplayRequest;
  exchanges: readonly RecordedExchange[];
  versionOutput?: string;
}): { stdout: string; stderr: string; exitCode: number } | undefined {
  const { request, exchanges } = options;
  if (exchanges.some((x) => x.transport === "cli" && x.request.method === request.method)) return undefined;
  if (request.method === "--version") {
    return options.versionOutput === undefined ? undefined : { stdout: options.versionOutput, stderr: "", exitCode: 0 };
  }
  if (request.method !== "list-tools" && request.method !== "describe") return undefined;
  const list = exchanges.find((x) => x.request.method === "tools/list" && x.rpc?.response);
  const result = list?.rpc?.response ? rawMember(list.rpc.response, "result") : undefined;
  if (!result) return undefined;
  if (request.method === "list-tools") return renderListTools(result);
  const name = ((request.args as { positionals?: string[] } | undefined)?.positionals ?? [])[0] ?? "";
  return renderDescribe(result, name);
}
