#!/usr/bin/env python3
"""The same harness with one deliberate fail-closed bug: when a mutation times out it assumes
the call never reached the driver, and sends it again on the spot. If the first click did land,
the screen now got two clicks. `cua-contract replay` catches this with no-replay-after-unknown
(and rebuild-before-mutation, retry-read-only-only)."""
import sys

from harness import Harness, main


class BuggyHarness(Harness):
    def on_unknown(self, tool, args, key, why):
        # BUG: "it probably did not happen" — retry the mutation blind.
        reply = self.driver.call(tool, args)
        if reply["status"] != "ok":
            return "escalate", f"{tool} failed twice: {reply['why']}"
        return "done", f"{tool} succeeded on retry."


if __name__ == "__main__":
    sys.exit(main(sys.argv, BuggyHarness))
