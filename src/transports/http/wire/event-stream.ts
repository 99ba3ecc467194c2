// An MCP-over-HTTP answer's body is either the JSON-RPC message itself or an event stream
// (`text/event-stream`) whose first event's data is that message.

/** The JSON-RPC message an HTTP answer's body carries: the body when it is JSON, else the data of its first `data:` line (else the body as it is). */
export function messageOfBody(body: string): string {
  if (body.trimStart().startsWith("{")) return body;
  const data = /^data: ?(.*)$/m.exec(body);
  return data ? data[1]! : body;
}
