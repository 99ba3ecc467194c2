// A fail-closed Python harness (examples/fail-closed-python) recorded over MCP stdio with no faults, then
// replayed with every fault kind on its click and on its type_text: a correct harness goes where the
// recording never went (a rebuild, a re-read, the next action after one that did not take effect) and
// must pass; its buggy twins must be caught. The suite is off-path/fixture.ts's; MCP over HTTP: off-path-http.e2e.test.ts.
import { offPathSuite } from "./off-path/fixture.js";

offPathSuite("mcp");
