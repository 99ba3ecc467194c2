"""The example harness under cua-contract replay, from pytest.

Default: replays cassettes/button-boxes (no desktop). CUA_CONTRACT_MODE=record re-records it
from the real runtime on a throwaway desktop first. test_records_afresh records into a temporary
directory whenever the desktop programs are installed.
"""
import json
import os
import shutil
import sys

import pytest

from cua_contract_pytest import record, replay

HERE = os.path.dirname(os.path.abspath(__file__))
CASSETTE = os.path.join(HERE, "cassettes", "button-boxes")
HARNESS = [sys.executable, os.path.join(HERE, "open_button_boxes.py")]
CLICK_TIMES_OUT = {"rules": [{"match": {"tool": "click"}, "fault": {"kind": "timeout_after_effect"}}]}
# the throwaway desktop's programs (docs/desktop.md)
DESKTOP = ["Xvfb", "dbus-daemon", "openbox", "xdotool", "gtk3-demo", "/usr/libexec/at-spi-bus-launcher"]


@pytest.mark.cua_record(driver="sdk", desktop=True)
def test_opens_button_boxes(cua_replay):
    result = cua_replay(CASSETTE, HARNESS, fail_on_unused=True).assert_passed(allow_unused=False)
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome["rebuilt"] is False
    assert outcome["effect"] in ("confirmed", "unverifiable", "partial")
    assert [r["tool"] for r in result.requests()] == ["start_session", "list_windows", "get_window_state", "click", "list_windows", "get_window_state", "end_session"]


def test_click_timeout_rebuilds_the_session(cua_replay):
    result = cua_replay(CASSETTE, HARNESS, faults=CLICK_TIMES_OUT, env={**os.environ, "HARNESS_TIMEOUT_S": "1"}).assert_passed()
    assert json.loads(result.stdout.strip().splitlines()[-1])["rebuilt"] is True
    assert [r["outcome"] for r in result.requests("click")] == ["faulted"]


def test_a_harness_that_resends_the_click_is_caught(cua_replay):
    result = cua_replay(CASSETTE, HARNESS + ["--resend-on-timeout"], faults=CLICK_TIMES_OUT, env={**os.environ, "HARNESS_TIMEOUT_S": "1"})
    assert not result.passed
    result.assert_violates("no-replay-after-unknown")
    with pytest.raises(AssertionError, match="violation no-replay-after-unknown"):
        result.assert_passed()


MISSING = [p for p in DESKTOP if not (os.path.exists(p) if "/" in p else shutil.which(p))]


@pytest.mark.skipif(bool(MISSING), reason="desktop programs missing: " + ", ".join(MISSING))
@pytest.mark.skipif(os.environ.get("CUA_CONTRACT_MODE") == "record", reason="the marked test records the committed cassette in this mode")
def test_records_afresh(tmp_path):
    fresh = tmp_path / "rec"
    record(fresh, HARNESS, driver="sdk", desktop=True)
    result = replay(fresh, HARNESS, fail_on_unused=True).assert_passed(allow_unused=False)
    assert json.loads(result.stdout.strip().splitlines()[-1])["rebuilt"] is False
