import { describe, expect, it } from "vitest";
import { CLIENT_CAPABILITIES_KEY, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION_KEY } from "#src/transports/mcp/era.js";
import { MODERN_MCP_ERA, type ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import { type AskMcp, addModernEra, MODERN_REQUEST_META, type RawAnswer, erasSpoken, probeModernEra } from "./probe-eras.js";

const DISCOVER = { supportedVersions: ["2026-07-28"], capabilities: { extensions: { "io.modelcontextprotocol/skills": {} } }, resultType: "complete" };
const SKILLS = {
  skills: [
    {
      uri: "skill://cua-driver/SKILL.md",
      frontmatter: { name: "cua-driver", version: "0.28.2" },
      resources: [
        { uri: "skill://cua-driver/LINUX.md", size: 5, digest: "sha256:bb" },
        { uri: "skill://cua-driver/SKILL.md", size: 10, digest: "sha256:aa" },
      ],
    },
  ],
};
const RESOURCES = {
  resources: [
    { uri: "skill://cua-driver/LINUX.md", size: 5, name: "LINUX.md" },
    { uri: "skill://cua-driver/SKILL.md", size: 10 },
  ],
};

function asking(answers: Record<string, RawAnswer>): { ask: AskMcp; sent: { method: string; params: unknown }[] } {
  const sent: { method: string; params: unknown }[] = [];
  return {
    sent,
    ask: async (method, params) => {
      sent.push({ method, params });
      return answers[method] ?? { error: { code: -32601, message: `Unknown method: ${method}` } };
    },
  };
}

describe("the probe's modern-era requests", () => {
  it("carry the era's _meta as the MCP transport names it", () => {
    expect(MODERN_MCP_ERA).toBe(MODERN_PROTOCOL_VERSION);
    expect(Object.keys(MODERN_REQUEST_META).sort()).toEqual([CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY].sort());
  });

  it("record nothing when server/discover is -32601, as drivers before 0.28 answer it", async () => {
    const { ask, sent } = asking({});
    expect(await probeModernEra(ask)).toEqual({ steps: [], versions: [], noModernEra: true });
    expect(sent).toEqual([{ method: "server/discover", params: { _meta: MODERN_REQUEST_META } }]);
  });

  it("a -32601 is nothing in a snapshot before 0.28, and legacy only from 0.28 on (the era went away)", async () => {
    const findings = await probeModernEra(asking({}).ask);
    const snapshotOf = (version: string) =>
      ({
        format: "cua-contract-probe",
        version: 1,
        probed_at: "",
        driver: { source: "binary", location: "x", platform: "linux", version },
        steps: [],
      }) as unknown as ProbeSnapshot;
    const old = snapshotOf("0.21.0");
    addModernEra(old, findings, true);
    expect(old.mcp_eras).toBeUndefined();
    const newer = snapshotOf("0.28.2");
    addModernEra(newer, findings, true);
    expect(newer.mcp_eras).toEqual(["legacy"]);
    expect(newer.discover).toBeUndefined();
  });

  it("record the discover result and the catalogue with each resource's size and digest", async () => {
    const { ask, sent } = asking({ "server/discover": { result: DISCOVER }, "skills/list": { result: SKILLS }, "resources/list": { result: RESOURCES } });
    const found = await probeModernEra(ask);
    expect(sent.map((s) => s.method)).toEqual(["server/discover", "skills/list", "resources/list"]);
    expect(found.steps.map((s) => `${s.step} ${s.outcome.status}`)).toEqual(["mcp_discover succeeded", "mcp_skills succeeded"]);
    expect(found.versions).toEqual(["2026-07-28"]);
    expect(found.discover).toEqual(DISCOVER);
    expect(found.skills).toEqual({
      skills: [{ uri: "skill://cua-driver/SKILL.md", name: "cua-driver", version: "0.28.2" }],
      resources: [
        { uri: "skill://cua-driver/LINUX.md", size: 5, digest: "sha256:bb" },
        { uri: "skill://cua-driver/SKILL.md", size: 10, digest: "sha256:aa" },
      ],
    });
    expect(erasSpoken(true, found.versions)).toEqual(["legacy", "2026-07-28"]);
  });

  it("record another error, a timeout or a result that is not a DiscoverResult as a failed step", async () => {
    const cases: RawAnswer[] = [
      { error: { code: -32602, message: "Missing or invalid MCP protocolVersion metadata" } },
      { failed: "server/discover got no answer within 10 ms", timedOut: true },
      { result: { capabilities: {} } },
    ];
    const outcomes = await Promise.all(cases.map(async (answer) => (await probeModernEra(asking({ "server/discover": answer }).ask)).steps));
    expect(outcomes.map((steps) => steps.map((s) => `${s.step} ${s.outcome.status}`))).toEqual([
      ["mcp_discover failed"],
      ["mcp_discover failed"],
      ["mcp_discover failed"],
    ]);
    expect(outcomes[1]![0]!.outcome).toMatchObject({ timedOut: true });
    expect(outcomes[0]![0]!.outcome).toMatchObject({ message: expect.stringContaining("-32602") });
  });

  it("records a skills/list that fails as a failed mcp_skills step, keeping the era", async () => {
    const found = await probeModernEra(asking({ "server/discover": { result: DISCOVER }, "resources/list": { result: RESOURCES } }).ask);
    expect(found.versions).toEqual(["2026-07-28"]);
    expect(found.skills).toBeUndefined();
    expect(found.steps[1]).toMatchObject({ step: "mcp_skills", outcome: { status: "failed" } });
  });
});
