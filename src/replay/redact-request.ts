import { createRedactor, type Redactor } from "#src/cassette/redact.js";
import type { CassetteHeader } from "#src/schema/cassette.js";
import type { ReplayRequest } from "./engine/request.js";

/**
 * The recorder stored typed text, set_value values, clipboard text and tokens as stable
 * placeholders; incoming requests get the same treatment so they still match (and the replay
 * log never holds the secret either).
 */
export function requestRedactor(header: CassetteHeader | undefined): (request: ReplayRequest) => ReplayRequest {
  const settings = header?.redaction;
  if (!settings?.enabled) return (request) => request;
  const redactor: Redactor = createRedactor(settings);
  return (request) => {
    if (request.method !== "call" || request.args === undefined) return request;
    redactor.learnFromCall(request.tool, request.args);
    const text = JSON.stringify(request.args);
    const redacted = redactor.text(text);
    return redacted === text ? request : { ...request, args: JSON.parse(redacted) as unknown };
  };
}
