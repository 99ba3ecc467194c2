import { kitSuite } from "../kit.js";

// four rows wait out the suite's own 20 s timeouts; each run of the suite is about a second of CPU
kitSuite("trycua-e2e-api-parity", { concurrency: 5, timeoutMs: 150_000 });
