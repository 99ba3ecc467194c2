#!/usr/bin/env python3
"""A fail-closed cua-driver harness, over per-call CLI, MCP stdio or MCP over HTTP.

It runs one small task against gtk3-demo (open a session, find the window, look, type into it,
look again, click the "Button Boxes" row, look again, end the session) and follows the
fail-closed rules a harness owes its user:

- every driver call has a deadline (HARNESS_TIMEOUT_S, default 5 s);
- a mutation whose outcome is unknown (no answer in time, the driver process or daemon gone, an
  answer cut mid-JSON, an empty answer where the driver always says something) is never sent
  again: the session is marked suspect;
- before the next mutation a suspect session is rebuilt (a new `cua-driver mcp` process where the
  old one is stuck or gone, then `start_session`) and the window is looked at again, and the
  target is picked afresh from that look;
- only reads are retried, once, after the rebuild;
- a stale element token is refreshed by looking again, never retargeted from the old look.

Usage:  python3 harness.py --transport cli|mcp|http
Env:    CUA_DRIVER (default cua-driver), HARNESS_TIMEOUT_S, CUA_DESKTOP_APP_PID (the app to act
        on, else the first window), CUA_CONTRACT_MCP_HTTP_URL and CUA_DRIVER_RS_MCP_HTTP_TOKEN (http)
Prints one JSON line per step: {"step", "decision", "note"}; exits 0 when every step was judged.
"""
import json
import os
import select
import subprocess
import sys
import time
import urllib.error
import urllib.request

SESSION = "fail-closed-harness"
STALE_CODES = {"stale_element_token", "invalid_snapshot_id", "generation_mismatch"}


def unknown(why):
    return {"status": "unknown", "why": why}


def answered(result):
    """A tool result (structuredContent, else the text) as an outcome value."""
    code = refusal_code(result)
    return {"status": "refused" if code else "ok", "result": result, "code": code}


def from_jsonrpc(tool, reply):
    """A JSON-RPC reply to tools/call as an outcome value: an error or no content is unknown."""
    if "error" in reply:
        return unknown(f"{tool}: JSON-RPC error {reply['error'].get('code')}: {reply['error'].get('message')}")
    result = reply.get("result") or {}
    structured = result.get("structuredContent")
    if structured is None:
        text = "\n".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")
        if not text:
            return unknown(f"{tool}: empty answer")
        structured = {"text": text}
    return answered(structured)


def refusal_code(result):
    if not isinstance(result, dict):
        return None
    refusal = result.get("refusal")
    if isinstance(refusal, dict) and isinstance(refusal.get("code"), str):
        return refusal["code"]
    return result.get("code") if isinstance(result.get("code"), str) else None


class CliDriver:
    """One `cua-driver call TOOL JSON` process per call."""

    def __init__(self, command, timeout_s):
        self.command, self.timeout_s = command, timeout_s

    def call(self, tool, args):
        argv = [self.command, "call", tool, json.dumps(args, separators=(",", ":"))]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            return unknown(f"{tool}: no answer within {self.timeout_s}s")
        if done.returncode != 0:
            return unknown(f"{tool}: exit {done.returncode}: {done.stderr.strip()}")
        text = done.stdout.strip()
        if not text:
            return unknown(f"{tool}: empty answer")
        try:
            return answered(json.loads(text))
        except ValueError:
            return unknown(f"{tool}: answer cut mid-JSON") if text.startswith("{") else answered({"text": text})

    def reset(self):
        """Nothing to restart: every call is its own process (the daemon keeps the session)."""

    def close(self):
        pass


class McpDriver:
    """One `cua-driver mcp` process; a stuck or dead process is replaced by a new one on reset()."""

    def __init__(self, command, timeout_s):
        self.command, self.timeout_s = command, timeout_s
        self.proc, self.next_id, self.buffer = None, 1, b""

    def _open(self):
        self.proc = subprocess.Popen([self.command, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buffer = b""
        init = self._request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fail-closed-harness", "version": "1"}})
        if init.get("status") == "unknown":
            return init
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self._request("tools/list", {})

    def _send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def _request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        try:
            self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        except (BrokenPipeError, OSError):
            return unknown(f"{method}: the driver process is gone")
        deadline = time.monotonic() + self.timeout_s
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if not line.strip():
                    continue
                try:
                    message = json.loads(line)
                except ValueError:
                    return unknown(f"{method}: answer cut mid-JSON")
                if message.get("id") == rid:
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                return unknown(f"{method}: no answer within {self.timeout_s}s")
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                return unknown(f"{method}: the driver process ended (stdout closed)")
            self.buffer += chunk

    def call(self, tool, args):
        if self.proc is None:
            opened = self._open()
            if opened.get("status") == "unknown":
                return opened
        reply = self._request("tools/call", {"name": tool, "arguments": args})
        if reply.get("status") == "unknown":
            return reply
        return from_jsonrpc(tool, reply)

    def reset(self):
        """The process may be stuck on a call that never returns, or gone: replace it."""
        self.close()

    def close(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


class HttpDriver:
    """MCP over HTTP as `cua-driver serve` offers it: one POST per request, a bearer token."""

    def __init__(self, url, token, timeout_s):
        self.url, self.token, self.timeout_s, self.next_id = url, token, timeout_s, 1

    def call(self, tool, args):
        rid = self.next_id
        self.next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": tool, "arguments": args}}).encode()
        request = urllib.request.Request(self.url, data=body, method="POST", headers={"content-type": "application/json", "authorization": f"Bearer {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                text = response.read().decode()
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as error:
            return unknown(f"{tool}: {error}")
        try:
            reply = json.loads(text)
        except ValueError:
            return unknown(f"{tool}: answer cut mid-JSON")
        return from_jsonrpc(tool, reply)

    def reset(self):
        """Each request is its own connection; the daemon keeps the session."""

    def close(self):
        pass


class Harness:
    def __init__(self, driver):
        self.driver = driver
        self.suspect = False
        self.target = None  # {"pid", "window_id"} of the window acted on
        self.look = None  # the latest get_window_state of that window

    # --- the fail-closed call policy -------------------------------------------------------
    def rebuild(self):
        self.driver.reset()
        opened = self.driver.call("start_session", {"session": SESSION})
        self.suspect = opened["status"] != "ok"
        return not self.suspect

    def read(self, tool, args):
        reply = self.driver.call(tool, args)
        if reply["status"] == "unknown":
            self.suspect = True
            if self.rebuild():
                reply = self.driver.call(tool, args)  # reads are safe to send again, once
                # the retry failed too: the rebuilt session is suspect again
                self.suspect = reply["status"] == "unknown"
        return reply

    def mutate(self, tool, args):
        """Send a mutation once. An unknown outcome is reported, never re-sent."""
        reply = self.driver.call(tool, {**args, "session": SESSION})
        if reply["status"] == "unknown":
            return self.on_unknown(tool, args, reply)
        return reply

    def on_unknown(self, tool, args, reply):
        self.suspect = True
        return reply

    def before_mutation(self):
        """A suspect session is rebuilt and the window looked at again; the target is re-picked."""
        if not self.suspect:
            return True
        if not self.rebuild():
            return False
        return self.observe() is not None

    # --- the task --------------------------------------------------------------------------
    def observe(self):
        state = self.read("get_window_state", {**self.target, "session": SESSION})
        if state["status"] != "ok" or not isinstance(state["result"].get("elements"), list) or not state["result"]["elements"]:
            self.look = None
            return None
        self.look = state["result"]
        return self.look

    def element(self, label):
        for e in (self.look or {}).get("elements", []):
            if e.get("label") == label:
                return e
        return None

    def verdict(self, tool, reply):
        if reply["status"] == "unknown":
            return "verify_fresh_state", f"The outcome of {tool} is unknown ({reply['why']}); it was not re-sent. Look before acting again."
        if reply["status"] == "refused":
            if reply["code"] in STALE_CODES:
                self.observe()
                return "verify_fresh_state", f"{tool} was refused as stale; the window was looked at again. Pick the target afresh."
            return "escalate", f"{tool} was refused ({reply['code']})."
        effect = reply["result"].get("effect")
        if effect == "confirmed":
            return "done", "The driver confirmed the effect."
        return "verify_fresh_state", f"{tool} was delivered ({effect or 'no effect reported'}); look again before relying on it."

    def act(self, tool, args):
        if not self.before_mutation():
            return "escalate", "The session could not be rebuilt; nothing was sent."
        if self.look is None:
            return "verify_fresh_state", f"The window could not be seen; {tool} was not sent."
        return self.verdict(tool, self.mutate(tool, {**self.target, **args}))

    def click_row(self, label):
        if not self.before_mutation():
            return "escalate", "The session could not be rebuilt; nothing was sent."
        row = self.element(label)
        if row is None:
            return "verify_fresh_state", f'No "{label}" element in the latest look; nothing was clicked.'
        return self.verdict("click", self.mutate("click", {**self.target, "element_token": row["element_token"]}))

    def run(self):
        steps = []
        opened = self.driver.call("start_session", {"session": SESSION})
        self.suspect = opened["status"] != "ok"
        steps.append(("start_session", "done" if not self.suspect else "verify_fresh_state", opened.get("why", "session open")))
        windows = self.read("list_windows", {})
        listed = windows.get("result", {}).get("windows") if windows["status"] == "ok" else None
        if not listed:
            steps.append(("list_windows", "verify_fresh_state", "No windows were listed: the harness could not see any."))
            return steps
        pid = os.environ.get("CUA_DESKTOP_APP_PID")
        win = next((w for w in listed if pid and str(w.get("pid")) == pid), listed[0])
        self.target = {"pid": win["pid"], "window_id": win["window_id"]}
        steps.append(("list_windows", "done", f"{len(listed)} windows"))
        steps.append(("observe", "done" if self.observe() else "verify_fresh_state", "looked at the window"))
        steps.append(("type_text", *self.act("type_text", {"text": "hello from a fail-closed harness", "delivery_mode": "foreground"})))
        steps.append(("observe", "done" if self.observe() else "verify_fresh_state", "looked again"))
        steps.append(("click", *self.click_row("Button Boxes")))
        steps.append(("observe", "done" if self.observe() else "verify_fresh_state", "looked again"))
        if self.before_mutation():
            ended = self.driver.call("end_session", {"session": SESSION})
            steps.append(("end_session", "done" if ended["status"] == "ok" else "verify_fresh_state", ended.get("why", "session ended")))
        return steps


def make_driver(transport):
    timeout_s = float(os.environ.get("HARNESS_TIMEOUT_S", "5"))
    command = os.environ.get("CUA_DRIVER", "cua-driver")
    if transport == "cli":
        return CliDriver(command, timeout_s)
    if transport == "mcp":
        return McpDriver(command, timeout_s)
    if transport == "http":
        url = os.environ.get("CUA_CONTRACT_MCP_HTTP_URL") or f"http://127.0.0.1:{os.environ.get('CUA_DRIVER_RS_MCP_HTTP_PORT', '')}/mcp"
        return HttpDriver(url, os.environ.get("CUA_DRIVER_RS_MCP_HTTP_TOKEN", ""), timeout_s)
    raise SystemExit(f"harness: --transport must be cli, mcp or http (got {transport!r})")


def main(argv, harness_class=Harness):
    transport = argv[argv.index("--transport") + 1] if "--transport" in argv else "cli"
    driver = make_driver(transport)
    try:
        for i, (step, decision, note) in enumerate(harness_class(driver).run(), start=1):
            print(json.dumps({"step": i, "action": step, "decision": decision, "note": note}), flush=True)
    finally:
        driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
