import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// End-to-end tests spawn bin/cua-contract.js, which runs the compiled dist/: build it once per run.
export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  try {
    execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
      cwd: root,
      stdio: "pipe",
    });
  } catch (error) {
    // Type errors are reported by `npm run typecheck`; the emitted JavaScript is still usable.
    const out = String((error as { stdout?: Buffer }).stdout ?? "");
    if (!out.includes("error TS")) throw error;
  }
}
