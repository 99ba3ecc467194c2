import { describe, expect, it } from "vitest";
import { parseVersion, rangeProblem, satisfies } from "./versions.js";

describe("versions", () => {
  it("parses the version out of --version output and tags", () => {
    expect(parseVersion("cua-driver 0.21.0\n")).toBe("0.21.0");
    expect(parseVersion("v0.20.0-rc1")).toBe("0.20.0-rc1");
    expect(parseVersion("cua-driver dev")).toBeUndefined();
  });

  it.each([
    ["0.21.0", "0.21.x", true],
    ["0.21.7", "0.21", true],
    ["0.22.0", "0.21.x", false],
    ["0.28.2", "0.x", true],
    ["0.21.0", ">=0.21.0 <0.23.0", true],
    ["0.23.0", ">=0.21.0 <0.23.0", false],
    ["0.20.1", "0.20.x || 0.21.x", true],
    ["0.21.3", "^0.21.0", true],
    ["0.22.0", "^0.21.0", false],
    ["0.21.0", "0.21.0", true],
    ["0.21.1", "=0.21.0", false],
    ["0.21", "0.21.x", false],
  ])("%s in %s → %s", (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it("names what is wrong with a malformed range", () => {
    expect(rangeProblem("0.21.x")).toBeUndefined();
    expect(rangeProblem("latest")).toBe('"latest" is not a version, series (0.21.x) or comparator (>=0.21.0)');
    expect(rangeProblem("0.21.x ||")).toBe('empty alternative in "0.21.x ||"');
  });
});
