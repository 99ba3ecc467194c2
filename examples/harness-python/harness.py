#!/usr/bin/env python3
"""A small per-call cua-driver harness: one `cua-driver call` process per tool call.

It runs a task (a JSON list of steps in cua-contract's action vocabulary) and fails closed:
a mutation whose outcome is unknown (timeout, lost daemon, garbled output) is never sent again;
the session is rebuilt with start_session before the next mutation, and the harness takes a
fresh look before acting again. Only read-only tools are retried.

Usage:  python3 harness.py [TASK.json]
        (or set CUA_CONTRACT_SCENARIO to a scenario file; its "steps" are the task)
Env:    CUA_DRIVER (default: cua-driver on PATH), HARNESS_TIMEOUT_S (default 5)
Prints one JSON line per step: {"step", "action", "decision", "note"}. Exits 0 when every
step was handled (whatever the driver said), 2 on a bad task file.
"""
import json
import os
import subprocess
import sys

READ_ONLY = {
    "list_windows", "get_window_state", "get_desktop_state", "get_screen_size", "get_cursor_position",
    "get_session", "list_sessions", "list_apps", "verify_state", "zoom", "get_accessibility_tree",
}
STALE_CODES = {"stale_element_token", "invalid_snapshot_id", "generation_mismatch", "px_frame_mismatch"}
SESSION = "py-harness"


class Driver:
    """Calls `cua-driver call TOOL JSON`; outcomes are values, never exceptions."""

    def __init__(self, command, timeout_s):
        self.command = command
        self.timeout_s = timeout_s

    def call(self, tool, args):
        argv = [self.command, "call", tool, json.dumps(args, separators=(",", ":"))]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            return {"status": "unknown", "why": f"{tool} timed out after {self.timeout_s}s"}
        if done.returncode != 0:
            # Exit 1 covers "daemon not running" (nothing happened) and "daemon closed connection"
            # (anything may have happened): treat both as unknown.
            return {"status": "unknown", "why": done.stderr.strip() or f"exit {done.returncode}"}
        try:
            return {"status": "ok", "result": json.loads(done.stdout)}
        except ValueError:
            text = done.stdout.strip()
            if text.startswith("{"):
                return {"status": "unknown", "why": f"{tool} printed truncated JSON"}
            return {"status": "ok", "result": {"text": text}}


def refusal_code(result):
    if not isinstance(result, dict):
        return None
    refusal = result.get("refusal")
    if isinstance(refusal, dict) and isinstance(refusal.get("code"), str):
        return refusal["code"]
    code = result.get("code")
    return code if isinstance(code, str) else None


def verdict(result):
    """ActionResult → decision, in the reference harness's words."""
    code = refusal_code(result)
    effect = result.get("effect") if isinstance(result, dict) else None
    if effect == "confirmed":
        return "done", "The driver confirmed the effect."
    if effect == "unverifiable":
        return "verify_fresh_state", "Input was delivered but not confirmed. Look again before any retry."
    if code or effect in ("suspected_noop", "refused"):
        return "escalate", f"The input likely did not land ({code or effect})."
    return "verify_fresh_state", "Transport succeeded but the effect is unproven. Look again before continuing."


def driver_call_for(step):
    """The driver call a step asks for, as (tool, args)."""
    action = step.get("action")
    target = {k: step[k] for k in ("pid", "window_id") if k in step}
    delivery = {"delivery_mode": step["delivery_mode"]} if "delivery_mode" in step else {}
    if action == "list_windows":
        return "list_windows", {}
    if action in ("get_window_state", "observe"):
        return "get_window_state", {**target, **({"query": step["query"]} if "query" in step else {})}
    if action == "click":
        keys = ("element_token",) if "element_token" in step else ("x", "y")
        return "click", {**target, **{k: step[k] for k in keys}, **delivery}
    if action == "type_text":
        return "type_text", {**target, "text": step["text"], **delivery}
    if action == "press_key":
        return "press_key", {**target, "key": step["key"], **delivery}
    if action == "hotkey":
        keys = step["keys"] if isinstance(step["keys"], list) else step["keys"].split("+")
        return "hotkey", {**target, "keys": keys, **delivery}
    if action == "set_window_frame":
        return "set_window_frame", {k: step[k] for k in ("pid", "window_id", "x", "y", "width", "height")}
    if action == "call":
        return step["tool"], step.get("args", {})
    raise ValueError(f"unknown action {action!r}")


class Harness:
    def __init__(self, driver):
        self.driver = driver
        self.suspect = False  # an unknown outcome happened: rebuild before the next mutation
        self.unknown = set()  # mutations whose outcome is unknown, until a fresh look
        self.observed = None  # windows seen since the last empty/failed list (None: no list yet)

    def rebuild(self):
        rebuilt = self.driver.call("start_session", {"session": SESSION})
        self.suspect = rebuilt["status"] != "ok"
        return not self.suspect

    def read(self, tool, args):
        reply = self.driver.call(tool, args)
        if reply["status"] == "unknown":
            # The driver may be gone: rebuild the session, then ask again once (reads are safe to repeat).
            self.suspect = True
            if self.rebuild():
                reply = self.driver.call(tool, args)
        result = reply.get("result")
        if reply["status"] == "ok" and isinstance(result, dict) and not refusal_code(result):
            if not (tool == "list_windows" and not result.get("windows")):
                self.unknown.clear()  # a fresh, non-empty look: unknown outcomes can be judged now
        return reply

    def mutate(self, tool, args):
        key = tool + json.dumps(args, sort_keys=True)
        if key in self.unknown:
            return "verify_fresh_state", f"{tool} was not re-sent: its last outcome is unknown. Look first."
        window = args.get("window_id")
        if self.observed is not None and window is not None and window not in self.observed:
            return "verify_fresh_state", f"Window {window} has not been seen since the window list came back empty; look first. No input was sent."
        if self.suspect and not self.rebuild():
            return "escalate", "The session could not be rebuilt; no input was sent."
        reply = self.driver.call(tool, args)
        if reply["status"] == "unknown":
            return self.on_unknown(tool, args, key, reply["why"])
        result = reply["result"]
        if refusal_code(result) in STALE_CODES:
            self.read("get_window_state", {k: args[k] for k in ("pid", "window_id") if k in args})
            return "verify_fresh_state", "The element was stale; the window was observed again. Pick the target afresh."
        return verdict(result)

    def on_unknown(self, tool, args, key, why):
        self.suspect = True
        self.unknown.add(key)
        return "verify_fresh_state", f"The outcome of {tool} is unknown ({why}); it was not re-sent. Look before acting again."

    def list_windows(self):
        reply = self.read("list_windows", {})
        windows = reply.get("result", {}).get("windows") if reply["status"] == "ok" and isinstance(reply.get("result"), dict) else None
        if not windows:
            self.observed = set()  # could not see: remember nothing as seen
            return "verify_fresh_state", "No windows were listed; that means the harness could not see any, not that none exist."
        self.observed = {w.get("window_id") for w in windows}
        return "done", "list_windows observed."

    def step(self, step):
        if step.get("action") == "observe":
            decision, note = self.list_windows()
            if "window_id" not in step:
                return decision, note
        tool, args = driver_call_for(step)
        if tool == "list_windows":
            return self.list_windows()
        if tool in READ_ONLY:
            reply = self.read(tool, args)
            if reply["status"] != "ok" or refusal_code(reply.get("result")):
                return "verify_fresh_state", f"{tool} failed: {reply.get('why') or refusal_code(reply.get('result'))}"
            if tool == "get_window_state" and self.observed is not None and "window_id" in args:
                self.observed.add(args["window_id"])
            return ("done" if step.get("action") != "observe" or decision == "done" else decision), f"{tool} observed."
        return self.mutate(tool, args)


def load_task(argv):
    path = argv[1] if len(argv) > 1 else os.environ.get("CUA_CONTRACT_SCENARIO")
    if not path:
        return [{"action": "list_windows"}]
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return doc["steps"] if isinstance(doc, dict) else doc


def main(argv, harness_class=Harness):
    try:
        task = load_task(argv)
    except (OSError, ValueError, KeyError) as error:
        print(f"harness: cannot read the task: {error}", file=sys.stderr)
        return 2
    driver = Driver(os.environ.get("CUA_DRIVER", "cua-driver"), float(os.environ.get("HARNESS_TIMEOUT_S", "5")))
    harness = harness_class(driver)
    for i, step in enumerate(task, start=1):
        if step.get("action") == "wait":
            continue
        decision, note = harness.step(step)
        print(json.dumps({"step": i, "action": step.get("action"), "decision": decision, "note": note}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
