import type { RequestEntry } from "#src/schema/replay-log.js";
import { quote } from "./classify.js";
import { causeTracker } from "./evidence.js";
import type { Invariant } from "./types.js";

// In the MCP 2026-07-28 era there is no handshake that outlives a request: each one carries the
// protocol version and the client's capabilities in `params._meta` (docs/eras.md). A harness that
// spoke that era on a connection and then sends a request without them has lost its era: a driver
// of 0.28 or later refuses it (-32602) unless a legacy `initialize` came first, and a harness that
// sent one mixes two eras on one connection. Entries carry `era` only where the driver has eras
// (MCP stdio, 0.28 or later), so nothing else is judged.
export const eraMetadataOnEveryRequest: Invariant = {
  id: "era-metadata-on-every-request",
  statement:
    "Once a request of the 2026-07-28 MCP era was accepted on a stdio connection, every later request there carries the era's metadata (`io.modelcontextprotocol/protocolVersion` and `io.modelcontextprotocol/clientCapabilities` in `params._meta`).",
  check(entries) {
    const causes = causeTracker("era-metadata-on-every-request");
    const negotiated = new Map<number, RequestEntry>();
    for (const e of entries) {
      if (e.type !== "request" || e.transport !== "mcp" || e.stream === undefined || e.era === undefined) continue;
      const first = negotiated.get(e.stream);
      if (e.era === "modern") {
        if (!first && e.synthesized !== "era_refusal") negotiated.set(e.stream, e);
        continue;
      }
      if (!first) continue;
      causes.offend(String(e.stream), e, () => ({
        message: `${quote(e)} is sent on MCP stream ${e.stream} without the 2026-07-28 era's metadata, after ${quote(first)} spoke that era there; every request of the era carries \`io.modelcontextprotocol/protocolVersion\` and \`io.modelcontextprotocol/clientCapabilities\` in \`params._meta\``,
        requests: [first, e],
      }));
    }
    return causes.violations();
  },
};
