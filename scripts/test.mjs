// `npm test`: lint and format check first (half a second, and the commonest failure), then the
// type-check and the suite side by side — tsc needs one core for a few seconds, and the suite leaves
// some idle while its tests wait on harnesses and desktops. TypeScript 7 checks on several threads
// by default; beside the suite one thread costs less CPU (about 4 s against 6) and takes no longer.
// Either failing fails the run; tsc's output is printed after the suite's, so the two do not
// interleave. Arguments go to vitest; without a file or --project among them, it runs the projects
// "suite" and "e2e-own-process" (the desktop and the writers' tiers have their own commands: test/tiers.ts).
import { spawn } from "node:child_process";

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: options.capture ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    if (options.capture) {
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
    }
    children.add(child);
    child.on("error", (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => {
      children.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

const children = new Set();
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    for (const child of children) child.kill(sig);
    process.exit(130);
  });

// file filters or a --project of the caller's choose the files; else the two projects of `npm test`
function vitestArgs(args) {
  const chooses = args.some((a) => !a.startsWith("-") || a === "--project" || a.startsWith("--project="));
  return chooses ? args : [...args, "--project", "suite", "--project", "e2e-own-process"];
}

const lint = await run(bin("biome"), ["check", "--error-on-warnings", "."]);
if (lint.code !== 0) process.exit(lint.code);
const [types, tests] = await Promise.all([
  run(bin("tsc"), ["-p", "tsconfig.json", "--noEmit", "--singleThreaded"], { capture: true }),
  run(bin("vitest"), ["run", ...vitestArgs(process.argv.slice(2))]),
]);
if (types.code !== 0) process.stderr.write(`\nnpm test: the type-check failed (tsc -p tsconfig.json --noEmit):\n${types.output}`);
else process.stdout.write("npm test: type-check passed (tsc -p tsconfig.json --noEmit)\n");
process.exit(types.code !== 0 ? types.code : tests.code);
