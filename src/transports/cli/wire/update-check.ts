/**
 * The update check's encodings (the state and texts are `src/driver/update-check.ts`):
 * `cua-driver check-update [--json]` output and the `check_for_update` tool result.
 */
import { CHECK_FOR_UPDATE_ENTRY, checkUpdateExitCode, checkUpdateLines, type UpdateState, updateSummary } from "#src/driver/update-check.js";
import { canonicalJson, canonicalPretty } from "#src/wire/json/canonical.js";
import { serdeString } from "#src/wire/json/string.js";

/** `cua-driver check-update [--json]` (cli.rs:3629-3669): text or pretty JSON on stdout; exit 1 only when the check failed outright. */
export function renderCheckUpdate(options: { state: UpdateState; json: boolean }): { stdout: string; stderr: string; exitCode: number } {
  const { state } = options;
  const exitCode = checkUpdateExitCode(state);
  if (options.json) return { stdout: `${canonicalPretty(state)}\n`, stderr: "", exitCode };
  return {
    stdout: checkUpdateLines(state)
      .map((l) => `${l}\n`)
      .join(""),
    stderr: "",
    exitCode,
  };
}

/** The `check_for_update` tool result (check_update_tool.rs:59-86): a summary text and the state; never `isError`. */
export function checkForUpdateResult(state: UpdateState): string {
  return `{"content":[{"text":${serdeString(updateSummary(state))},"type":"text"}],"structuredContent":${canonicalJson(state)}}`;
}

/** The `check_for_update` tools/list entry as JSON text. */
export const CHECK_FOR_UPDATE_ENTRY_JSON = JSON.stringify(CHECK_FOR_UPDATE_ENTRY);
