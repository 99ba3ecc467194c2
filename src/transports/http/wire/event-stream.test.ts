import { describe, expect, it } from "vitest";
import { messageOfBody } from "./event-stream.js";

describe("messageOfBody", () => {
  it("reads a JSON body as it is and an event stream's first data line", () => {
    const message = '{"jsonrpc":"2.0","id":1,"result":{}}';
    expect(messageOfBody(message)).toBe(message);
    expect(messageOfBody(`event: message\ndata: ${message}\n\n`)).toBe(message);
    expect(messageOfBody(`data:${message}\n\ndata: {"other":true}\n`)).toBe(message);
    expect(messageOfBody("not json")).toBe("not json");
  });
});
