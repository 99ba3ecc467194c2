#!/usr/bin/env python3
"""A small per-call harness: open gtk3-demo's "Button Boxes" demo with `cua-driver call`.

After the click it reads again. When the click's outcome is unknown (it timed out) the harness
fails closed: it never re-sends the click and rebuilds the session first, unless run with
--resend-on-timeout (a deliberate bug, to show the replay catching it).

Env: CUA_DRIVER (default cua-driver on PATH), CUA_DESKTOP_APP_PID (the window to use when several),
HARNESS_TIMEOUT_S (per call, default 10). Prints one JSON line: {"effect", "windows", "rebuilt"}.
"""
import json
import os
import subprocess
import sys

SESSION = "pytest-example"
DRIVER = os.environ.get("CUA_DRIVER", "cua-driver")
TIMEOUT = float(os.environ.get("HARNESS_TIMEOUT_S", "10"))
RESEND = "--resend-on-timeout" in sys.argv


def call(tool, args):
    """One `cua-driver call`; None when the outcome is unknown (timeout or a failed call)."""
    try:
        done = subprocess.run([DRIVER, "call", tool, json.dumps(args, separators=(",", ":"))], capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)


def must(tool, args):
    result = call(tool, args)
    if result is None:
        sys.exit(f"{tool}: no answer")
    return result


def main():
    must("start_session", {"session": SESSION})
    windows = must("list_windows", {}).get("windows", [])
    pid = int(os.environ.get("CUA_DESKTOP_APP_PID") or 0)
    win = next((w for w in windows if w["pid"] == pid), windows[0] if windows else None)
    if win is None:
        sys.exit("list_windows found no window")
    target = {"pid": win["pid"], "window_id": win["window_id"], "session": SESSION}
    state = must("get_window_state", target)
    token = next((e["element_token"] for e in state.get("elements", []) if e.get("label") == "Button Boxes"), None)
    if token is None:
        sys.exit('no "Button Boxes" element')
    click = call("click", {**target, "element_token": token})
    rebuilt = False
    if click is None:
        if RESEND:
            click = call("click", {**target, "element_token": token})
        else:
            must("start_session", {"session": SESSION})
            rebuilt = True
    after = must("list_windows", {}).get("windows", [])
    must("get_window_state", target)
    must("end_session", {"session": SESSION})
    print(json.dumps({"effect": (click or {}).get("effect", "unknown"), "windows": len(after), "rebuilt": rebuilt}))


if __name__ == "__main__":
    main()
