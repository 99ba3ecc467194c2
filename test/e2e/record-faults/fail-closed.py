# A fail-closed harness (per-call CLI or MCP stdio), used to record and replay with faults.
# It never re-sends a mutation whose outcome is unknown: it rebuilds the session with
# start_session, reads again and acts anew; a refused action is re-read and tried once more;
# a failed read is retried once. It prints one line per call: the tool, what it made of the
# answer, and a digest of every byte it got, so two runs compare byte for byte.
import hashlib, json, os, select, subprocess, sys, time

MODE = sys.argv[1]            # cli | mcp
TIMEOUT = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
# argv[3]: write the log to this file instead of stdout
SESSION = "rf"
log = []


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(repr(p).encode())
    return h.hexdigest()[:16]


def judge(text):
    try:
        value = json.loads(text)
    except Exception:
        return "unknown", None
    if isinstance(value, dict) and ("refusal" in value or "code" in value):
        return "refused", value
    return "ok", value


class Cli:
    def call(self, tool, args):
        try:
            p = subprocess.run(["cua-driver", "call", tool, json.dumps(args)], capture_output=True, stdin=subprocess.DEVNULL, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return "unknown", None, "timeout"
        seen = digest(p.returncode, p.stdout, p.stderr)
        if p.returncode != 0:
            return "unknown", None, seen
        kind, value = judge(p.stdout.decode("utf-8", "replace"))
        return kind, value, seen

    def close(self):
        pass


class Mcp:
    def __init__(self):
        self.proc = None
        self.next_id = 1
        self.buf = b""

    def start(self):
        self.proc = subprocess.Popen(["cua-driver", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fail-closed", "version": "1"}})
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()

    def readline(self):
        deadline = time.monotonic() + TIMEOUT
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "timeout"
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                return None, "timeout"
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None, "eof"
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line, None

    def request(self, method, params):
        if self.proc is None:
            self.start()
        rid = self.next_id
        self.next_id += 1
        try:
            self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            return None, "eof"
        return self.readline()

    def call(self, tool, args):
        line, failure = self.request("tools/call", {"name": tool, "arguments": args})
        if failure:
            # a stream that timed out or died is not trusted again: a new process
            self.drop()
            return "unknown", None, failure
        seen = digest(line)
        try:
            message = json.loads(line)
        except Exception:
            self.drop()
            return "unknown", None, seen
        if "error" in message:
            return "unknown", None, seen
        result = message["result"]
        structured = result.get("structuredContent")
        if result.get("isError") or (isinstance(structured, dict) and ("refusal" in structured or "code" in structured)):
            return "refused", structured, seen
        return "ok", structured, seen

    def drop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()


driver = Cli() if MODE == "cli" else Mcp()


def call(tool, args):
    kind, value, seen = driver.call(tool, args)
    log.append(f"{tool} {kind} {seen}")
    return kind, value


suspect = False


def read(tool, args):
    global suspect
    kind, value = call(tool, args)
    if kind != "ok":  # a read may be retried; a transport failure makes the session suspect
        suspect = suspect or kind == "unknown"
        kind, value = call(tool, args)
    return kind, value


def rebuild():
    global suspect
    log.append("suspect: rebuild")
    call("start_session", {"session": SESSION})
    suspect = False


def target():
    kind, value = read("list_windows", {})
    windows = [w for w in (value or {}).get("windows", []) if w.get("app_name") == "Gtk3-demo"] if kind == "ok" else []
    if not windows:
        return None
    w = windows[0]
    kind, state = read("get_window_state", {"pid": w["pid"], "window_id": w["window_id"], "session": SESSION})
    elements = (state or {}).get("elements", []) if kind == "ok" else []
    tabs = [e for e in elements if e.get("role") == "page tab" and e.get("element_token")]
    tabs = [e for e in tabs if e.get("label") == "Source"] or tabs or [e for e in elements if e.get("label") == "Run" and e.get("element_token")]
    if not tabs:
        return None
    return {"pid": w["pid"], "window_id": w["window_id"], "element_token": tabs[0]["element_token"], "session": SESSION}


def act(tool, args):
    """A mutation, sent once. Unknown outcome: rebuild, read again, act anew (at most once)."""
    if suspect:
        rebuild()
    kind, _ = call(tool, args)
    if kind == "unknown":
        rebuild()
        again = target()
        if again is not None:
            call(tool, again)
    elif kind == "refused":
        again = target()
        if again is not None:
            call(tool, again)


call("start_session", {"session": SESSION})
t = target()
if t is None:
    log.append("no target")
else:
    act("click", t)
    t = target()
    if t is not None:
        act("click", t)
call("end_session", {"session": SESSION})
driver.close()
out = "\n".join(log) + "\n"
if len(sys.argv) > 3:
    with open(sys.argv[3], "w") as f:
        f.write(out)
else:
    sys.stdout.write(out)
