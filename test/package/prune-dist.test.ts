import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pruneDist } from "../../scripts/prune-dist.mjs";
import { tmpDir } from "../helpers/tmp-dir.js";

describe("npm run build: dist/ holds only the modules src/ has", () => {
  it("removes the output of a moved module, keeps every other file and the native shim", async () => {
    await using root = await tmpDir();
    const put = (file: string) => {
      mkdirSync(path.dirname(path.join(root.path, file)), { recursive: true });
      writeFileSync(path.join(root.path, file), "x");
    };
    for (const f of [
      "src/a.ts",
      "src/moved/to.ts",
      "dist/a.js",
      "dist/a.d.ts",
      "dist/moved/to.js",
      "dist/old/from.js",
      "dist/old/from.d.ts",
      "dist/shim/cua-driver-shim-x",
      "dist/.tsbuildinfo",
    ])
      put(f);
    expect(pruneDist(root.path).sort()).toEqual(["dist/old/from.d.ts", "dist/old/from.js"]);
    for (const kept of ["dist/a.js", "dist/a.d.ts", "dist/moved/to.js", "dist/shim/cua-driver-shim-x", "dist/.tsbuildinfo"])
      expect(existsSync(path.join(root.path, kept)), kept).toBe(true);
    expect(existsSync(path.join(root.path, "dist/old"))).toBe(false);
  });
});
