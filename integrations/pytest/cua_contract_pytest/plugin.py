"""The pytest plugin: the `cua_replay` fixture and the `cua_record` marker.

    @pytest.mark.cua_record(driver="sdk", desktop=True)   # re-record when CUA_CONTRACT_MODE=record, grow when =record-missing
    def test_login(cua_replay):
        cua_replay("cassettes/login", ["python3", "harness.py"]).assert_passed()
"""
import pytest

from .runner import MODES, record, record_missing, replay, resolve_mode


def pytest_addoption(parser):
    group = parser.getgroup("cua-contract")
    group.addoption("--cua-mode", choices=MODES, default=None, help="replay (default), record the tests marked cua_record afresh, or record-missing: add the calls their cassettes lack; CUA_CONTRACT_MODE sets it too")


def pytest_configure(config):
    config.addinivalue_line("markers", "cua_record(driver='sdk', desktop=False, allow_in_ci=False): in record mode, record the cassette from the live driver before replaying it; in record-missing mode, add the calls it lacks")


@pytest.fixture
def cua_mode(request):
    """The mode for this test: --cua-mode, else CUA_CONTRACT_MODE, else replay."""
    return resolve_mode(request.config.getoption("--cua-mode"))


@pytest.fixture
def cua_replay(request, cua_mode):
    """A function `(cassette, command, **options) -> ReplayResult` running the harness under replay.

    In record mode, a test marked `cua_record` first records `command` into `cassette` (replacing
    it) with the marker's driver and desktop, then replays it, so the test judges the new recording.
    In record-missing mode it first runs `command` under `replay --record-missing` (the calls the
    cassette lacks are answered live and added; refused under CI=true unless the marker says
    `allow_in_ci=True`), then replays the grown cassette.
    """
    marker = request.node.get_closest_marker("cua_record")

    def run(cassette, command, **options):
        if cua_mode == "record" and marker is not None:
            record(cassette, command, driver=marker.kwargs.get("driver", "sdk"), desktop=marker.kwargs.get("desktop", False), env=options.get("env"), cwd=options.get("cwd"))
        elif cua_mode == "record-missing" and marker is not None:
            record_missing(cassette, command, driver=marker.kwargs.get("driver", "sdk"), desktop=marker.kwargs.get("desktop", False), allow_in_ci=marker.kwargs.get("allow_in_ci", False), env=options.get("env"), cwd=options.get("cwd"))
        return replay(cassette, command, **options)

    return run
