import { access } from "node:fs/promises";
import path from "node:path";
import { defineCommand } from "#src/cli/command.js";
import { UserError } from "#src/errors.js";
import { contractFromSnapshot } from "#src/contract/contract-init.js";
import { readSnapshot, snapshotFile } from "#src/probe/read-snapshot.js";
import { writeOutputFile } from "#src/report/write-output.js";

export const contractCommand = defineCommand({
  command: "contract <action>",
  describe: "Write a starting driver contract from a probe snapshot (then trim it to what your harness uses)",
  builder: (y) =>
    y
      .positional("action", { type: "string", choices: ["init"], describe: "init: write a starting contract" })
      .option("from", { type: "string", describe: "Probe snapshot file, or cassette directory with probe.json (required)" })
      .option("out", { type: "string", describe: "Write the contract here instead of stdout" })
      .option("name", { type: "string", describe: "Contract name" })
      .option("force", { type: "boolean", default: false, describe: "Overwrite --out if it exists" }),
  handler: async (args) => {
    if (typeof args.from !== "string" || args.from === "") {
      throw new UserError("contract init needs a probe snapshot to start from", {
        code: "USAGE",
        field: "--from",
        fix: "Pass --from SNAPSHOT (written by `cua-contract probe --save FILE`, e.g. contracts/drivers/cua-driver-0.21.0.probe.json.gz) or a cassette directory with probe.json.",
      });
    }
    const from = args.from;
    const snapshot = await readSnapshot(from);
    const out = args.out ? String(args.out) : undefined;
    if (
      out &&
      !args.force &&
      (await access(out).then(
        () => true,
        () => false,
      ))
    ) {
      throw new UserError(`${out} already exists`, { code: "OUTPUT_EXISTS", field: "--out", fix: "Choose another path, or pass --force to overwrite it." });
    }
    const baseline = out ? path.relative(path.dirname(path.resolve(out)), path.resolve(await snapshotFile(from))) : undefined;
    const contract = contractFromSnapshot({ snapshot, ...(args.name ? { name: String(args.name) } : {}), ...(baseline ? { baseline } : {}) });
    const text = `${JSON.stringify(contract, null, 2)}\n`;
    if (out) {
      writeOutputFile({ file: out, flag: "--out", text });
      process.stderr.write(
        `wrote ${out}: ${Object.keys(contract.tools).length} tools, ${Object.keys(contract.argv ?? {}).length} subcommands; trim it to what your harness uses\n`,
      );
    } else process.stdout.write(text);
    return 0;
  },
});
