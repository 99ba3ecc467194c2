// Removes what tsc emitted into dist/ for a source file that no longer exists (a module moved or
// deleted): tsc's incremental build never deletes, so without this a moved module would still be
// shipped, and importable, under its old name. Run after `tsc -p tsconfig.build.json`.
import { existsSync, readdirSync, rmSync, rmdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const EMITTED = [".d.ts", ".js"];

/** The files removed, relative to the root. */
export function pruneDist(root) {
  const dist = path.join(root, "dist");
  const removed = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        // dist/shim holds the compiled native shim, not tsc's output
        if (file === path.join(dist, "shim")) continue;
        walk(file);
        if (readdirSync(file).length === 0) rmdirSync(file);
        continue;
      }
      const ext = EMITTED.find((e) => entry.name.endsWith(e));
      if (!ext) continue;
      const source = path.join(root, "src", path.relative(dist, file).slice(0, -ext.length) + ".ts");
      if (existsSync(source)) continue;
      rmSync(file);
      removed.push(path.relative(root, file));
    }
  };
  walk(dist);
  return removed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const removed = pruneDist(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
  if (removed.length > 0) console.error(`build: removed ${removed.length} file(s) of modules that no longer exist`);
}
