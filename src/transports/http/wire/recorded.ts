// How an MCP-over-HTTP exchange reads from a recording: one `http` event holds the request body and
// the response (status and body). The exchange reader (src/cassette/exchanges/) keeps this entry
// under "http" in its record of transports.
import type { HttpEvent } from "#src/schema/cassette.js";
import { originOf, storedMember, type RecordedReading, type RecordedRpc } from "#src/wire/recorded.js";

/** The part of a recorded HTTP exchange its reading looks at (`message`: undefined when the body is no JSON object). */
interface HttpRecorded {
  request: { event: HttpEvent; message: RecordedRpc | undefined };
}

export const httpRecorded: RecordedReading<HttpRecorded, HttpEvent> = {
  tool: (x) => x.request.message?.tool,
  isCall: (x) => x.request.message?.method === "tools/call",
  countedAs: (x, origin) => (origin !== "recorder" ? x.request.message?.tool : undefined),
  exit: () => undefined,
  request: ({ request: { message } }) => (message ? { form: "rpc", message } : undefined),
  slim: (e) => ({
    ...e,
    request: { ...e.request, body: JSON.stringify({ method: storedMember(e.request.body, "method") }) },
    response: { ...e.response, body: "" },
  }),
  answerIn: (event) => ({
    form: "rpc",
    body: event.response.body,
    status: event.response.status,
    origin: originOf(event),
  }),
};
