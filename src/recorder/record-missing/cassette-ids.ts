import type { StoredBytes } from "#src/schema/bytes.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { collectIds, emptyIdSets, type IdKind } from "./id-json.js";

/** Every pid, window id and snapshot id a cassette names anywhere (requests, answers, text). */
export function cassetteIds(events: readonly CassetteEvent[]): Record<IdKind, Set<string>> {
  const ids = emptyIdSets();
  const add = (bytes: StoredBytes | undefined) => {
    if (typeof bytes === "string" && bytes.length > 0) collectIds(bytes, ids);
  };
  for (const e of events) {
    if (e.kind === "cli") {
      for (const a of e.argv) add(a);
      add(e.stdin);
      add(e.stdout);
      add(e.stderr);
    } else if (e.kind === "mcp") add(e.line);
    else if (e.kind === "mcp_stderr") add(e.data);
    else if (e.kind === "http") {
      add(e.request.body);
      add(e.response.body);
    }
  }
  return ids;
}
