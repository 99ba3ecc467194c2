import type { CliCommand } from "../command.js";
import { importCommand } from "./import.js";
import { reportCommand } from "./report.js";
import { probeCommand } from "./probe.js";
import { diffCommand } from "./diff.js";
import { contractCommand } from "./contract.js";
import { gateCommand } from "./gate.js";
import { desktopCommand } from "./desktop.js";
import { recordCommand } from "./record.js";
import { inspectCommand } from "./inspect.js";
import { checkCommand } from "./check.js";
import { fuzzCommand } from "./fuzz.js";
import { replayCommand } from "./replay.js";
import { serveCommand } from "./serve.js";
import { verifyCommand } from "./verify.js";
import { cassetteCommand } from "./cassette.js";

// Each command lives in its own file; add it here.
export const commands: CliCommand[] = [importCommand, reportCommand, probeCommand, diffCommand, contractCommand, gateCommand, desktopCommand, recordCommand, inspectCommand, checkCommand, fuzzCommand, replayCommand, serveCommand, verifyCommand, cassetteCommand];
