"""A stand-in for the cua-contract CLI: appends its argv to $FAKE_CLI_LOG, and for `replay` writes
a passing summary to --json-out, so the plugin's command lines can be checked without node."""
import json
import os
import sys

argv = sys.argv[1:]
with open(os.environ["FAKE_CLI_LOG"], "a", encoding="utf-8") as f:
    f.write(json.dumps(argv) + "\n")
if argv[0] == "replay" and "--json-out" in argv:
    out = argv[argv.index("--json-out") + 1]
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"served": 1, "unmatched": 0, "faults": 0, "unused": 0, "unusedMutations": [], "violations": [], "harnessExitCode": 0, "exitCode": 0}, f)
