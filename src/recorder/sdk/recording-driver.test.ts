// The capability snapshot `record --driver sdk:V` writes beside the cassette is taken with the MCP
// era steps, as `probe --driver sdk:V` takes it: a 0.28 recording names its eras and skills.
import { describe, expect, it } from "vitest";
import { sdkUnavailable } from "../../../test/helpers/sdk-available.js";
import { sdkRecordingDriver } from "./recording-driver.js";

const skip028 = await sdkUnavailable("0.28.2");

describe.skipIf(Boolean(skip028))("the recorder's runtime snapshot", () => {
  it("records the eras, the discover result and the skill catalogue of a 0.28 runtime", { timeout: 60_000 }, async () => {
    const driver = await sdkRecordingDriver("sdk:0.28.2");
    const snapshot = await driver!.probe();
    expect(snapshot.driver).toMatchObject({ source: "sdk", version: "0.28.2" });
    expect(snapshot.mcp_eras).toEqual(["legacy", "2026-07-28"]);
    expect(snapshot.discover?.supportedVersions).toEqual(["2026-07-28"]);
    expect(snapshot.skills?.resources.length).toBeGreaterThan(0);
    expect(snapshot.steps.map((s) => s.step)).toEqual(expect.arrayContaining(["mcp_discover", "mcp_skills"]));
  });
});
