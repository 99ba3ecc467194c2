import { kitSuite } from "../kit.js";

// four rows wait out the program's own 30 s: all of them at once
kitSuite("trycua-codex-agent", { concurrency: 5, timeoutMs: 120_000 });
