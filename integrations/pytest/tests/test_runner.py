"""Tests of the cua-contract pytest integration, with the standard library only (python3 -m unittest).

The replay tests run the real CLI of this checkout (bin/cua-contract.js, built into dist/)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from cua_contract_pytest import ReplayResult, build_record_argv, build_record_missing_argv, build_replay_argv, find_cli, observe, record_missing, replay, resolve_mode  # noqa: E402
from cua_contract_pytest.runner import CuaContractError  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
CASSETTE = os.path.join(ROOT, "test", "fixtures", "cassettes", "replay-cli-gtk")
PYTEST = subprocess.run([sys.executable, "-m", "pytest", "--version"], capture_output=True).returncode == 0


class ModeAndCli(unittest.TestCase):
    def test_mode_from_code_then_env_then_replay(self):
        self.assertEqual(resolve_mode(None, {}), "replay")
        self.assertEqual(resolve_mode(None, {"CUA_CONTRACT_MODE": "record"}), "record")
        self.assertEqual(resolve_mode("replay", {"CUA_CONTRACT_MODE": "record"}), "replay")
        self.assertEqual(resolve_mode(None, {"CUA_CONTRACT_MODE": "record-missing"}), "record-missing")
        with self.assertRaisesRegex(CuaContractError, r"^CUA_CONTRACT_MODE: unknown cassette mode 'live'\. Use one of replay, record, record-missing\.$"):
            resolve_mode(None, {"CUA_CONTRACT_MODE": "live"})

    def test_cli_from_env_then_the_checkout(self):
        self.assertEqual(find_cli({"CUA_CONTRACT_BIN": "npx --yes cua-contract"}), ["npx", "--yes", "cua-contract"])
        cli = find_cli({"PATH": os.environ["PATH"]})
        self.assertEqual(cli[1], os.path.join(ROOT, "bin", "cua-contract.js"))
        # outside a checkout and a project, with nothing on PATH: npx
        with tempfile.TemporaryDirectory() as empty:
            before = os.getcwd()
            os.chdir(empty)
            try:
                self.assertEqual(find_cli({"PATH": empty}, here=os.path.join(empty, "a", "b", "c")), ["npx", "cua-contract"])
                # a pip-installed plugin run in a clone of cua-contract uses the clone's bin
                os.chdir(ROOT)
                self.assertEqual(find_cli({"PATH": empty}, here=os.path.join(empty, "a", "b", "c"))[1:], [os.path.join(ROOT, "bin", "cua-contract.js")])
            finally:
                os.chdir(before)

    def test_cli_of_the_project_in_the_working_directory_when_installed_with_pip(self):
        with tempfile.TemporaryDirectory() as project:
            bin_js = os.path.join(project, "node_modules", "cua-contract", "bin", "cua-contract.js")
            os.makedirs(os.path.dirname(bin_js))
            open(bin_js, "w").close()
            os.makedirs(os.path.join(project, "tests"))
            before = os.getcwd()
            os.chdir(os.path.join(project, "tests"))
            try:
                cli = find_cli({"PATH": os.environ["PATH"]}, here=os.path.join(project, "venv", "site-packages", "cua_contract_pytest"))
            finally:
                os.chdir(before)
            self.assertEqual(cli[1], os.path.realpath(bin_js) if cli[1] != bin_js else bin_js)

    def test_argv(self):
        argv = build_replay_argv(["cc"], "rec", ["python3", "h.py"], faults_file="p.json", seed=3, invariants=[], fail_on_unused=True, json_out="s.json", log="l.jsonl")
        self.assertEqual(argv, ["cc", "replay", "rec", "--faults", "p.json", "--seed", "3", "--invariants", "none", "--fail-on-unused", "--json-out", "s.json", "--log", "l.jsonl", "--", "python3", "h.py"])
        self.assertEqual(build_record_argv(["cc"], "rec", ["h"], driver="sdk:0.21.0", desktop=True), ["cc", "record", "--out", "rec", "--driver", "sdk:0.21.0", "--desktop", "--force", "--", "h"])
        self.assertEqual(
            build_record_missing_argv(["cc"], "rec", ["h"], driver="sdk:0.21.0", desktop=True, allow_in_ci=True, json_out="s.json"),
            ["cc", "replay", "rec", "--record-missing", "--driver", "sdk:0.21.0", "--desktop", "--allow-in-ci", "--json-out", "s.json", "--", "h"],
        )

    def test_importable_without_pytest(self):
        code = "import sys; sys.modules['pytest'] = None; sys.path.insert(0, sys.argv[1]); import cua_contract_pytest; print(cua_contract_pytest.resolve_mode(None, {}))"
        done = subprocess.run([sys.executable, "-c", code, os.path.dirname(HERE)], capture_output=True, text=True)
        self.assertEqual((done.returncode, done.stdout.strip()), (0, "replay"), done.stderr)


class ReplayAgainstTheCli(unittest.TestCase):
    def test_a_passing_run_gives_the_summary_and_the_log(self):
        with tempfile.TemporaryDirectory() as tmp:
            junit = os.path.join(tmp, "replay.xml")
            result = replay(CASSETTE, ["sh", "-c", "cua-driver call get_screen_size </dev/null"], junit=junit)
            import xml.etree.ElementTree as ET
            cases = ET.parse(junit).getroot().findall("./testsuite/testcase")
            self.assertEqual([c.get("name") for c in cases], ["#0 call get_screen_size", "harness exit"])
        self.assertIsInstance(result, ReplayResult)
        self.assertTrue(result.passed, result.failure_text())
        self.assertEqual((result.served, result.unmatched, result.harness_exit_code), (1, 0, 0))
        self.assertIn('"width": 1280', result.stdout)
        self.assertEqual([r["tool"] for r in result.requests()], ["get_screen_size"])
        self.assertEqual(result.assert_passed(), result)
        with self.assertRaisesRegex(AssertionError, r"unused recorded mutations: #3 click, #4 press_key"):
            result.assert_passed(allow_unused=False)

    def test_observe_declares_a_look_the_invariants_count(self):
        # the recording clicks, then presses escape; the first press hangs, the harness reads its own
        # state (declared with observe), then presses again: no blind re-send
        press = json.dumps({"pid": 24132, "window_id": 4194311, "key": "escape"})
        click = json.dumps({"pid": 24132, "window_id": 4194311, "element_token": "s00000004:15"})
        harness = textwrap.dedent(f"""
            import subprocess, sys
            sys.path.insert(0, {os.path.dirname(HERE)!r})
            from cua_contract_pytest import observe
            subprocess.run(["cua-driver", "call", "click", {click!r}], stdin=subprocess.DEVNULL)
            try:
                subprocess.run(["cua-driver", "call", "press_key", {press!r}], stdin=subprocess.DEVNULL, timeout=1)
            except subprocess.TimeoutExpired:
                pass
            assert observe("read the board through the game's own API")
            subprocess.run(["cua-driver", "call", "press_key", {press!r}], stdin=subprocess.DEVNULL, capture_output=True)
        """)
        plan = {"rules": [{"match": {"tool": "press_key", "nth": 1}, "fault": {"kind": "hang"}}]}
        result = replay(CASSETTE, [sys.executable, "-c", harness], faults=plan)
        self.assertEqual([o["note"] for o in result.observations()], ["read the board through the game's own API"])
        self.assertEqual(result.observations()[0]["before"], 2)
        self.assertEqual(result.violations, [], result.failure_text())
        # outside a replay it declares nothing
        self.assertFalse(observe("x", env={}))

    def test_a_fault_plan_dict_and_an_unmatched_request(self):
        plan = {"rules": [{"match": {"tool": "get_screen_size"}, "fault": {"kind": "exit", "code": 1, "stderr": "boom\n"}}]}
        result = replay(CASSETTE, ["sh", "-c", "cua-driver call get_screen_size </dev/null; cua-driver call get_screen_size '{\"x\":1}' </dev/null; true"], faults=plan)
        self.assertFalse(result.passed)
        self.assertEqual([r["outcome"] for r in result.requests()], ["faulted", "unmatched"])
        with self.assertRaisesRegex(AssertionError, r"unmatched #1 get_screen_size: "):
            result.assert_passed()

    def test_record_missing_adds_what_the_cassette_lacks_and_is_refused_in_ci(self):
        fake = os.path.join(ROOT, "test", "fixtures", "drivers", "cua-driver-0.21.0")
        harness = ["sh", "-c", "cua-driver call get_screen_size </dev/null; cua-driver call get_cursor_position '{}' </dev/null"]
        with tempfile.TemporaryDirectory() as tmp:
            grown = os.path.join(tmp, "rec")
            shutil.copytree(CASSETTE, grown)
            env = {**os.environ, "CI": ""}
            summary = record_missing(grown, harness, driver=fake, env=env)
            self.assertEqual((summary["served"], summary["added"], summary["exitCode"]), (1, 1, 0))
            result = replay(grown, harness, env=env)
            self.assertEqual((result.served, result.unmatched), (2, 0), result.failure_text())
            with self.assertRaisesRegex(CuaContractError, r"exited 2: .*record-missing is refused when CI=true"):
                record_missing(grown, harness, driver=fake, env={**os.environ, "CI": "true"})

    def test_bad_input_raises_with_the_cli_message(self):
        with tempfile.TemporaryDirectory() as empty:
            with self.assertRaisesRegex(CuaContractError, r"without a summary: cua-contract: .*cassette\.jsonl"):
                replay(empty, ["true"])


@unittest.skipUnless(PYTEST, "pytest is not installed for this python3 (apt-get install python3-pytest)")
class PluginUnderPytest(unittest.TestCase):
    def run_pytest(self, mode, full=False):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "argv.jsonl")
            with open(os.path.join(tmp, "test_x.py"), "w", encoding="utf-8") as f:
                f.write(textwrap.dedent("""
                    import pytest

                    @pytest.mark.cua_record(driver="sdk:0.21.0", desktop=True)
                    def test_marked(cua_replay):
                        assert cua_replay("rec", ["python3", "h.py"]).passed

                    def test_unmarked(cua_replay):
                        assert cua_replay("rec2", ["h2"]).passed
                """))
            env = {**os.environ, "PYTHONPATH": os.path.dirname(HERE), "CUA_CONTRACT_BIN": f"{sys.executable} {os.path.join(HERE, 'fake_cli.py')}", "FAKE_CLI_LOG": log, "CUA_CONTRACT_MODE": mode}
            done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "cua_contract_pytest.plugin", "-p", "no:cacheprovider", tmp], capture_output=True, text=True, env=env, cwd=tmp)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            with open(log, encoding="utf-8") as f:
                calls = [json.loads(line) for line in f]
                return calls if full else [c[:2] + [c[-1]] for c in calls]

    def test_replay_mode_only_replays(self):
        self.assertEqual(self.run_pytest("replay"), [["replay", "rec", "h.py"], ["replay", "rec2", "h2"]])

    def test_record_mode_records_the_marked_test_first(self):
        self.assertEqual(self.run_pytest("record"), [["record", "--out", "h.py"], ["replay", "rec", "h.py"], ["replay", "rec2", "h2"]])

    def test_record_missing_mode_grows_the_marked_test_first(self):
        calls = self.run_pytest("record-missing", full=True)
        self.assertEqual([c[:2] + [c[-1]] for c in calls], [["replay", "rec", "h.py"], ["replay", "rec", "h.py"], ["replay", "rec2", "h2"]])
        grow = calls[0]
        self.assertEqual(grow[2:6], ["--record-missing", "--driver", "sdk:0.21.0", "--desktop"])
        self.assertNotIn("--allow-in-ci", grow)
        self.assertNotIn("--record-missing", calls[1] + calls[2])


if __name__ == "__main__":
    unittest.main()
