# A raw MCP stdio client in Python: starts `cua-driver mcp` (argv[2:] or just that), sends each
# line of argv[1] (a JSON list); after a request (a line with "id") waits up to 2 s for one answer
# line. Prints {"lines": [...answers, or null on timeout], "exit": code, "stderr": text}, and with
# MCP_LINES_WAITS=1 also "waits_ms": [ms from each request to its answer].
import json, os, subprocess, sys, threading, queue, time

lines = json.loads(sys.argv[1])
cmd = sys.argv[2:] or ["cua-driver", "mcp"]
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
answers = queue.Queue()
def pump():
    for raw in p.stdout:
        answers.put(raw.decode("utf-8"))
    answers.put(None)
threading.Thread(target=pump, daemon=True).start()
got = []
waits = []
eof = False
for line in lines:
    if eof:
        break
    try:
        sent = time.monotonic()
        p.stdin.write((line + "\n").encode()); p.stdin.flush()
    except BrokenPipeError:
        eof = True; break
    try:
        is_request = json.loads(line).get("id") is not None
    except Exception:
        is_request = True
    if not is_request:
        continue
    try:
        a = answers.get(timeout=2)
        waits.append(round((time.monotonic() - sent) * 1000))
        if a is None:
            eof = True; got.append("EOF")
        else:
            got.append(a.rstrip("\n") if a.endswith("\n") else a + "<no newline>")
    except queue.Empty:
        got.append(None)
try:
    p.stdin.close()
except Exception:
    pass
try:
    code = p.wait(timeout=2)
except subprocess.TimeoutExpired:
    p.kill(); code = "killed"
out = {"lines": got, "exit": code, "stderr": p.stderr.read().decode()}
if os.environ.get("MCP_LINES_WAITS") == "1":
    out["waits_ms"] = waits
print(json.dumps(out))
