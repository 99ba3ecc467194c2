# A per-call harness written in Python: runs each step with `cua-driver` from PATH and prints what
# it saw (exit code, stdout, stderr, elapsed, out-file bytes) as one JSON document.
import base64, json, os, subprocess, sys, time

steps = json.loads(sys.argv[1])
seen = []
for step in steps:
    if "observe" in step:
        # a look by the harness's own means, declared to the replay (docs/invariants.md)
        with open(os.environ["CUA_CONTRACT_OBSERVE"], "a") as f:
            f.write(step["observe"] + "\n")
        continue
    argv = step["argv"]
    started = time.monotonic()
    try:
        p = subprocess.run(["cua-driver", *argv], capture_output=True, stdin=subprocess.DEVNULL, timeout=step.get("timeout", 20))
        out = {"exit": p.returncode, "stdout": p.stdout.decode("utf-8", "replace"), "stderr": p.stderr.decode("utf-8", "replace")}
    except subprocess.TimeoutExpired:
        out = {"timeout": True}
    out["elapsed_ms"] = int((time.monotonic() - started) * 1000)
    if "out_file" in step and os.path.exists(step["out_file"]):
        with open(step["out_file"], "rb") as f:
            out["file_b64"] = base64.b64encode(f.read()).decode()
    seen.append(out)
print(json.dumps(seen))
