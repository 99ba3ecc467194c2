#!/usr/bin/env python3
"""Three buggy twins of harness.py, each with one fail-closed bug a real harness has shipped.

    python3 twins.py resend        --transport cli|mcp|http
    python3 twins.py keep-session  --transport cli|mcp|http
    python3 twins.py retarget      --transport cli|mcp|http

- resend: when a mutation's outcome is unknown it assumes the call never arrived and sends it
  again at once (on a fresh process where the old one is stuck), with no rebuild and no new look.
- keep-session: after a timeout it keeps calling on the same session (on MCP stdio: the same,
  stuck process) as if nothing happened, and never rebuilds.
- retarget: when a click is refused as stale it clicks the next element of the old look instead
  of looking again.
"""
import sys

from harness import Harness, main


class Resend(Harness):
    def on_unknown(self, tool, args, reply):
        self.driver.reset()
        return self.driver.call(tool, {**args, "session": "fail-closed-harness"})


class KeepSession(Harness):
    def read(self, tool, args):
        return self.driver.call(tool, args)

    def observe(self):
        previous = self.look
        return super().observe() or (setattr(self, "look", previous) or previous)

    def on_unknown(self, tool, args, reply):
        return reply


class Retarget(Harness):
    def verdict(self, tool, reply):
        if tool == "click" and reply["status"] == "refused" and reply["code"] == "stale_element_token":
            elements = (self.look or {}).get("elements", [])
            row = self.element("Button Boxes")
            later = [e for e in elements if row is not None and e.get("element_index", -1) > row.get("element_index", -1)]
            if later:
                reply = self.mutate("click", {**self.target, "element_token": later[0]["element_token"]})
        return super().verdict(tool, reply)


TWINS = {"resend": Resend, "keep-session": KeepSession, "retarget": Retarget}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in TWINS:
        print(f"usage: twins.py {'|'.join(TWINS)} --transport cli|mcp|http", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:], TWINS[sys.argv[1]]))
