"""Building and running `cua-contract replay` / `record` command lines, and reading their results."""
import json
import os
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

MODES = ("replay", "record", "record-missing")


class CuaContractError(RuntimeError):
    """cua-contract itself refused (bad input, exit 2) or could not be found."""


@dataclass
class Violation:
    id: str
    message: str
    events: list


@dataclass
class ReplayResult:
    """What one `cua-contract replay` run said: its summary, its replay log and the harness's output."""

    served: int
    unmatched: int
    faults: int
    unused_mutations: list
    violations: list
    harness_exit_code: int
    exit_code: int
    log: list = field(default_factory=list)
    stdout: str = ""
    stderr: str = ""
    argv: list = field(default_factory=list)

    @property
    def passed(self):
        return self.exit_code == 0

    def observations(self):
        """The looks the harness declared (replay-log `observation` entries), in log order."""
        return [e for e in self.log if e.get("type") == "observation"]

    def requests(self, tool=None):
        """The replay log's request entries, optionally only those of one tool."""
        return [e for e in self.log if e.get("type") == "request" and (tool is None or e.get("tool") == tool)]

    def failure_text(self):
        lines = [f"cua-contract replay exited {self.exit_code} (harness {self.harness_exit_code}); served {self.served}, unmatched {self.unmatched}"]
        for r in self.requests():
            if r.get("outcome") == "unmatched":
                lines.append(f"  unmatched #{r['n']} {r.get('tool') or r.get('method')}: {(r.get('unmatched') or {}).get('reason', 'no recorded request matches')}")
        for v in self.violations:
            lines.append(f"  violation {v.id}: {v.message}")
        if self.harness_exit_code != 0 and self.stderr.strip():
            lines.append("  harness stderr (last lines): " + " | ".join(self.stderr.strip().splitlines()[-3:]))
        return "\n".join(lines)

    def assert_passed(self, allow_unused=True):
        """Raise AssertionError naming every unmatched request and violated invariant, unless the run passed."""
        failed = not self.passed or (not allow_unused and self.unused_mutations)
        if failed:
            extra = "" if allow_unused or not self.unused_mutations else "\n  unused recorded mutations: " + ", ".join(f"#{u['seq']} {u.get('tool', '')}" for u in self.unused_mutations)
            raise AssertionError(self.failure_text() + extra)
        return self

    def assert_violates(self, invariant):
        """Raise AssertionError unless the run violated this invariant (for tests of a broken harness)."""
        if not any(v.id == invariant for v in self.violations):
            raise AssertionError(f"expected invariant {invariant} to be violated; got {[v.id for v in self.violations] or 'none'}\n" + self.failure_text())
        return self


def observe(note="", env=None):
    """Declare a look the harness took by its own means (its game state, its own screenshot).

    Under `cua-contract replay` the invariants count it as a fresh observation; it appends one
    line to the file `CUA_CONTRACT_OBSERVE` names. Outside a replay (no such variable) it does
    nothing, so a harness can call it unconditionally. Returns whether it was declared.
    """
    path = (os.environ if env is None else env).get("CUA_CONTRACT_OBSERVE")
    if not path:
        return False
    line = " ".join(str(note).split())
    with open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")
    return True


def resolve_mode(explicit=None, env=None):
    """The mode from code, else CUA_CONTRACT_MODE, else replay."""
    env = os.environ if env is None else env
    value = explicit or env.get("CUA_CONTRACT_MODE") or "replay"
    if value not in MODES:
        source = "mode" if explicit else "CUA_CONTRACT_MODE"
        raise CuaContractError(f"{source}: unknown cassette mode {value!r}. Use one of {', '.join(MODES)}.")
    return value


def find_cli(env=None, here=None):
    """The cua-contract command: CUA_CONTRACT_BIN, else this checkout's or package's bin, else the working directory's project's, else PATH, else npx."""
    env = os.environ if env is None else env
    if env.get("CUA_CONTRACT_BIN"):
        return shlex.split(env["CUA_CONTRACT_BIN"])
    here = here or os.path.dirname(os.path.abspath(__file__))
    # integrations/pytest/cua_contract_pytest → the package root holds bin/cua-contract.js
    bin_js = os.path.normpath(os.path.join(here, "..", "..", "..", "bin", "cua-contract.js"))
    if os.path.isfile(bin_js):
        return [shutil.which("node", path=env.get("PATH")) or "node", bin_js]
    # installed with pip: the project's own npm package (or a clone of cua-contract), from the working directory up
    directory = os.path.abspath(os.getcwd())
    while True:
        installed = os.path.join(directory, "node_modules", "cua-contract", "bin", "cua-contract.js")
        if os.path.isfile(installed):
            return [shutil.which("node", path=env.get("PATH")) or "node", installed]
        if _is_cua_contract_clone(directory):
            return [shutil.which("node", path=env.get("PATH")) or "node", os.path.join(directory, "bin", "cua-contract.js")]
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    on_path = shutil.which("cua-contract", path=env.get("PATH"))
    if on_path:
        return [on_path]
    return ["npx", "cua-contract"]


def _is_cua_contract_clone(directory):
    try:
        with open(os.path.join(directory, "package.json"), encoding="utf-8") as f:
            name = json.load(f).get("name")
    except (OSError, ValueError, AttributeError):
        return False
    return name == "cua-contract" and os.path.isfile(os.path.join(directory, "bin", "cua-contract.js"))


def build_replay_argv(cli, cassette, command, faults_file=None, seed=None, invariants=None, fail_on_unused=False, json_out=None, log=None, junit=None, speed=None):
    argv = list(cli) + ["replay", str(cassette)]
    if faults_file:
        argv += ["--faults", str(faults_file)]
    if seed is not None:
        argv += ["--seed", str(int(seed))]
    if invariants is not None:
        argv += ["--invariants", ",".join(invariants) if invariants else "none"]
    if fail_on_unused:
        argv.append("--fail-on-unused")
    if json_out:
        argv += ["--json-out", str(json_out)]
    if log:
        argv += ["--log", str(log)]
    if junit:
        argv += ["--junit", str(junit)]
    if speed:
        argv += ["--speed", speed]
    return argv + ["--"] + [str(c) for c in command]


def build_record_argv(cli, cassette, command, driver="sdk", desktop=False, force=True):
    argv = list(cli) + ["record", "--out", str(cassette), "--driver", driver]
    if desktop:
        argv.append("--desktop")
    if force:
        argv.append("--force")
    return argv + ["--"] + [str(c) for c in command]


def build_record_missing_argv(cli, cassette, command, driver="sdk", desktop=False, allow_in_ci=False, json_out=None):
    argv = list(cli) + ["replay", str(cassette), "--record-missing", "--driver", driver]
    if desktop:
        argv.append("--desktop")
    if allow_in_ci:
        argv.append("--allow-in-ci")
    if json_out:
        argv += ["--json-out", str(json_out)]
    return argv + ["--"] + [str(c) for c in command]


def _read_log(path):
    entries = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    entries.append(json.loads(line))
    return entries


def replay(cassette, command, faults=None, seed=None, invariants=None, fail_on_unused=False, env=None, cwd=None, timeout=300, cli=None, speed=None, junit=None):
    """Runs `cua-contract replay CASSETTE -- COMMAND` and returns its ReplayResult.

    `junit` names a JUnit XML file to write (one test case per request the harness sent).

    `faults` is a fault plan (a dict, written to a temporary file) or a path to one. A usage error
    from cua-contract (exit 2: bad cassette, bad plan) raises CuaContractError with its message.
    """
    cli = cli or find_cli(env)
    with tempfile.TemporaryDirectory(prefix="cua-contract-pytest-") as tmp:
        faults_file = None
        if isinstance(faults, dict):
            faults_file = os.path.join(tmp, "faults.json")
            with open(faults_file, "w", encoding="utf-8") as f:
                json.dump(faults, f)
        elif faults is not None:
            faults_file = str(faults)
        summary_file = os.path.join(tmp, "summary.json")
        log_file = os.path.join(tmp, "log.jsonl")
        argv = build_replay_argv(cli, cassette, command, faults_file, seed, invariants, fail_on_unused, summary_file, log_file, junit=junit, speed=speed)
        run_env = dict(os.environ if env is None else env)
        done = subprocess.run(argv, capture_output=True, text=True, env=run_env, cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)
        if not os.path.exists(summary_file):
            raise CuaContractError(f"cua-contract replay exited {done.returncode} without a summary: {done.stderr.strip()}")
        with open(summary_file, encoding="utf-8") as f:
            s = json.load(f)
        return ReplayResult(
            served=s["served"],
            unmatched=s["unmatched"],
            faults=s["faults"],
            unused_mutations=s["unusedMutations"],
            violations=[Violation(v["id"], v["message"], v.get("events", [])) for v in s["violations"]],
            harness_exit_code=s["harnessExitCode"],
            exit_code=s["exitCode"],
            log=_read_log(log_file),
            stdout=done.stdout,
            stderr=done.stderr,
            argv=argv,
        )


def record(cassette, command, driver="sdk", desktop=False, env=None, cwd=None, timeout=600, cli=None):
    """Records COMMAND against the live driver into CASSETTE (replaced). Returns the finished process."""
    cli = cli or find_cli(env)
    argv = build_record_argv(cli, cassette, command, driver=driver, desktop=desktop)
    done = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ if env is None else env), cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise CuaContractError(f"cua-contract record exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    return done


def record_missing(cassette, command, driver="sdk", desktop=False, allow_in_ci=False, env=None, cwd=None, timeout=600, cli=None):
    """Runs COMMAND under `replay --record-missing`: what CASSETTE lacks is answered by the live driver
    and added to it. Returns the run's summary (served, added, divergence, …); a refusal (CI=true
    without allow_in_ci, another driver version) or a failing harness raises CuaContractError."""
    cli = cli or find_cli(env)
    with tempfile.TemporaryDirectory(prefix="cua-contract-pytest-") as tmp:
        summary_file = os.path.join(tmp, "summary.json")
        argv = build_record_missing_argv(cli, cassette, command, driver=driver, desktop=desktop, allow_in_ci=allow_in_ci, json_out=summary_file)
        done = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ if env is None else env), cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise CuaContractError(f"cua-contract replay --record-missing exited {done.returncode}: {done.stderr.strip()[-2000:]}")
        with open(summary_file, encoding="utf-8") as f:
            return json.load(f)
