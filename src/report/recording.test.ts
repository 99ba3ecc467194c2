import { describe, expect, it } from "vitest";
import { readCassetteSync } from "#src/cassette/reader.js";
import { cassetteRows } from "./html/cassette-rows.js";
import { recordingOfEvents } from "./html/recording.js";
import { scanRecording } from "./scan-recording.js";

describe("a cassette read for a report line by line", () => {
  for (const dir of ["recordings/gtk3-demo-cli", "recordings/gtk3-demo-mcp", "test/fixtures/recordings-synthetic/mcp-session"]) {
    it(`${dir}: the rows, times and frames are those of its events in memory`, () => {
      const { cassette, recording } = scanRecording(dir);
      const events = readCassetteSync(dir, { frames: "skip" }).events;
      const fromEvents = recordingOfEvents(events);
      expect(recording.frameRefs).toEqual(fromEvents.frameRefs);
      const times = (r: typeof recording) => events.map((e) => r.tMs.get(e.seq));
      expect(times(recording)).toEqual(events.map((e) => e.t_ms));
      expect(times(fromEvents)).toEqual(events.map((e) => e.t_ms));
      expect(cassetteRows({ recording, cassetteDir: dir, idPrefix: "" })).toEqual(cassetteRows({ events, cassetteDir: dir, idPrefix: "" }));
      expect(cassette.header).toEqual(readCassetteSync(dir, { frames: "skip" }).header);
      // no event was kept: the events are read only when asked for
      expect(typeof Object.getOwnPropertyDescriptor(cassette, "events")?.get).toBe("function");
    });
  }
});
