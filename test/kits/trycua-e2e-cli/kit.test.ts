import { kitSuite } from "../kit.js";

// three rows wait out the suite's own 15 s subprocess timeout
kitSuite("trycua-e2e-cli", { concurrency: 4, timeoutMs: 90_000 });
