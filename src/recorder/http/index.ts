// Recording MCP over HTTP: a loopback proxy in front of `cua-driver serve` (docs/reference/cua-driver-contract.md §2.6).
export { startHttpRecordingProxy, type HttpRecordingProxy } from "./recording-proxy.js";
export { recordHttpExchange, type HttpExchange } from "./http-exchange-recording.js";
export { parseUpstreamUrl, parseProxyPort } from "./upstream-url.js";
export { checkHttpRecording, startHttpRecording, type HttpRecordingOptions } from "./http-recording.js";
