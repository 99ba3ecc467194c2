import { kitSuite } from "../kit.js";

// six rows wait out the client's own 20 s deadline: six at a time
kitSuite("trycua-e2e-list-windows", { concurrency: 6, timeoutMs: 90_000 });
