import { describe, expect, it } from "vitest";
import { fallback, tap, type StandIn, type StandInReply } from "./stand-in.js";

/** A stand-in that answers from a table (`miss` for what it lacks) and logs what it was asked and when it was opened and closed. */
function scripted(name: string, table: Record<string, string>, log: string[]): StandIn<string, string> {
  let connections = 0;
  return {
    transport: "mcp",
    open() {
      const c = connections++;
      log.push(`${name} open ${c}`);
      return {
        async send(request) {
          log.push(`${name}#${c} ${request}`);
          return { type: "answer", answer: table[request] ?? "miss" };
        },
        close: () => log.push(`${name} close ${c}`),
      };
    },
  };
}

const unanswered = (reply: StandInReply<string>) => reply.type === "answer" && reply.answer === "miss";
const same = {
  whenUnanswered: unanswered,
  toSecondary: (request: string) => request,
  fromSecondary: (reply: StandInReply<string>, o: { primary: StandInReply<string>; unanswered: boolean }) => (o.unanswered ? reply : o.primary),
};

describe("fallback", () => {
  it("never asks the secondary what the primary answers", async () => {
    const log: string[] = [];
    const c = fallback(scripted("replay", { a: "A" }, log), scripted("live", { a: "live A" }, log), same).open();
    expect(await c.send("a")).toEqual({ type: "answer", answer: "A" });
    expect(log.filter((l) => l.startsWith("live#"))).toEqual([]);
  });

  it("asks the secondary, on the connection opened with the primary's, what the primary cannot answer", async () => {
    const log: string[] = [];
    const both = fallback(scripted("replay", { a: "A" }, log), scripted("live", { b: "live B", c: "live C" }, log), same);
    const c = both.open();
    expect(await c.send("b")).toEqual({ type: "answer", answer: "live B" });
    expect(await c.send("a")).toEqual({ type: "answer", answer: "A" });
    expect(await c.send("c")).toEqual({ type: "answer", answer: "live C" });
    expect(log).toEqual(["replay open 0", "live open 0", "replay#0 b", "live#0 b", "replay#0 a", "replay#0 c", "live#0 c"]);
  });

  it("translates the request for the secondary and its answer back", async () => {
    const log: string[] = [];
    const c = fallback(scripted("replay", {}, log), scripted("live", { "id-7": "live id-7" }, log), {
      ...same,
      toSecondary: (request) => request.replace("rec-", "id-"),
      fromSecondary: (reply) => (reply.type === "answer" ? { type: "answer", answer: reply.answer.replace("id-", "rec-") } : reply),
    }).open();
    expect(await c.send("rec-7")).toEqual({ type: "answer", answer: "live rec-7" });
  });

  it("asks the secondary as well when told to, and gives what fromSecondary keeps", async () => {
    const log: string[] = [];
    const kept: string[] = [];
    const c = fallback(scripted("replay", { a: "A", m: "M" }, log), scripted("live", { a: "live A", m: "live M2" }, log), {
      ...same,
      alsoAsk: () => true,
      fromSecondary: (reply, o) => {
        const keepLive = o.unanswered || (o.request === "m" && reply.type === "answer" && reply.answer !== "live M");
        kept.push(`${o.request}:${keepLive ? "secondary" : "primary"}`);
        return keepLive ? reply : o.primary;
      },
    }).open();
    expect(await c.send("a")).toEqual({ type: "answer", answer: "A" });
    expect(await c.send("m")).toEqual({ type: "answer", answer: "live M2" });
    expect(kept).toEqual(["a:primary", "m:secondary"]);
    expect(log.filter((l) => l.startsWith("live#"))).toEqual(["live#0 a", "live#0 m"]);
  });

  it("answers one request at a time, in order, even when sent together", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: StandIn<string, string> = {
      transport: "mcp",
      open: () => ({
        async send(request) {
          order.push(`start ${request}`);
          if (request === "1") await gate;
          order.push(`end ${request}`);
          return { type: "answer", answer: "miss" };
        },
        close() {},
      }),
    };
    const c = fallback(slow, scripted("live", { 1: "one", 2: "two" }, []), same).open();
    const both = Promise.all([c.send("1"), c.send("2")]);
    await Promise.resolve();
    release();
    expect(await both).toEqual([
      { type: "answer", answer: "one" },
      { type: "answer", answer: "two" },
    ]);
    expect(order).toEqual(["start 1", "end 1", "start 2", "end 2"]);
  });

  it("closes both connections, the secondary even when the primary's close throws", () => {
    const log: string[] = [];
    const broken: StandIn<string, string> = {
      transport: "mcp",
      open: () => ({
        send: async () => ({ type: "none" }),
        close: () => {
          throw new Error("boom");
        },
      }),
    };
    const c = fallback(broken, scripted("live", {}, log), same).open();
    expect(() => c.close()).toThrow("boom");
    expect(log).toEqual(["live open 0", "live close 0"]);
    const d = fallback(scripted("replay", {}, log), scripted("live", {}, log), same).open();
    d.close();
    expect(log.slice(-2)).toEqual(["replay close 0", "live close 0"]);
  });

  it("closes the primary's connection when the secondary cannot be opened", () => {
    const log: string[] = [];
    const unopenable: StandIn<string, string> = {
      transport: "mcp",
      open: () => {
        throw new Error("no driver");
      },
    };
    expect(() => fallback(scripted("replay", {}, log), unopenable, same).open()).toThrow("no driver");
    expect(log).toEqual(["replay open 0", "replay close 0"]);
  });

  it("rejects the request a stand-in rejects, and answers the next one", async () => {
    const log: string[] = [];
    let fail = true;
    const flaky: StandIn<string, string> = {
      transport: "mcp",
      open: () => ({
        async send(request) {
          if (fail) {
            fail = false;
            throw new Error("bug");
          }
          return { type: "answer", answer: `live ${request}` };
        },
        close() {},
      }),
    };
    const c = fallback(scripted("replay", {}, log), flaky, same).open();
    await expect(c.send("x")).rejects.toThrow("bug");
    expect(await c.send("y")).toEqual({ type: "answer", answer: "live y" });
  });

  it("passes a reply that is not an answer (a close) through as the secondary gave it", async () => {
    const closed: StandIn<string, string> = { transport: "mcp", open: () => ({ send: async () => ({ type: "closed", code: 1, stderr: "gone" }), close() {} }) };
    const c = fallback(scripted("replay", {}, []), closed, same).open();
    expect(await c.send("x")).toEqual({ type: "closed", code: 1, stderr: "gone" });
  });

  it("shows a tapped secondary only what goes to it", async () => {
    const seen: string[] = [];
    const live = tap(scripted("live", { b: "live B" }, []), (request) => (reply) => {
      seen.push(`${request} -> ${reply.type === "answer" ? reply.answer : reply.type}`);
    });
    const c = fallback(scripted("replay", { a: "A" }, []), live, same).open();
    await c.send("a");
    await c.send("b");
    expect(seen).toEqual(["b -> live B"]);
  });
});
