import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../helpers/run-cli.js";

const CASSETTE = path.join(repoRoot, "test/fixtures/cassettes/replay-cli-gtk");

describe("cua-contract serve --transport cli-socket", () => {
  it("prints CUA_DRIVER and PATH for a shim that answers from the cassette until stopped", async () => {
    const child = execa(process.execPath, [cliPath, "serve", CASSETTE, "--transport", "cli-socket"], { reject: false });
    try {
      const env = await new Promise<Record<string, string>>((resolve, reject) => {
        let out = "";
        child.stdout!.on("data", (d: Buffer) => {
          out += d.toString();
          if (/^PATH=.*\n/m.test(out))
            resolve(
              Object.fromEntries(
                out
                  .trim()
                  .split("\n")
                  .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
              ),
            );
        });
        child.once("exit", () => reject(new Error("serve exited early")));
      });
      const r = await execa(env.CUA_DRIVER!, ["call", "get_screen_size", "{}"], { reject: false });
      expect(r).toMatchObject({ exitCode: 0, stdout: '{\n  "height": 800,\n  "scale_factor": 1.0,\n  "width": 1280\n}' });
      const viaPath = await execa("cua-driver", ["--version"], { env: { PATH: env.PATH! }, reject: false });
      expect(viaPath.stdout).toBe("cua-driver 0.21.0");
    } finally {
      child.kill("SIGTERM");
    }
    const done = await child;
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toContain("cua-contract serve: served 2, unmatched 0");
  });
});
