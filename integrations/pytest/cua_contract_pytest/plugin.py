"""The pytest plugin: the `cua_replay` fixture and the `cua_record` marker.

    @pytest.mark.cua_record(driver="sdk", desktop=True)   # re-record when CUA_CONTRACT_MODE=record
    def test_login(cua_replay):
        cua_replay("cassettes/login", ["python3", "harness.py"]).assert_passed()
"""
import pytest

from .runner import record, replay, resolve_mode


def pytest_addoption(parser):
    group = parser.getgroup("cua-contract")
    group.addoption("--cua-mode", choices=("replay", "record"), default=None, help="replay (default) or record the tests marked cua_record; CUA_CONTRACT_MODE sets it too")


def pytest_configure(config):
    config.addinivalue_line("markers", "cua_record(driver='sdk', desktop=False): in record mode, record the cassette from the live driver before replaying it")


@pytest.fixture
def cua_mode(request):
    """The mode for this test: --cua-mode, else CUA_CONTRACT_MODE, else replay."""
    return resolve_mode(request.config.getoption("--cua-mode"))


@pytest.fixture
def cua_replay(request, cua_mode):
    """A function `(cassette, command, **options) -> ReplayResult` running the harness under replay.

    In record mode, a test marked `cua_record` first records `command` into `cassette` (replacing
    it) with the marker's driver and desktop, then replays it, so the test judges the new recording.
    """
    marker = request.node.get_closest_marker("cua_record")

    def run(cassette, command, **options):
        if cua_mode == "record" and marker is not None:
            record(cassette, command, driver=marker.kwargs.get("driver", "sdk"), desktop=marker.kwargs.get("desktop", False), env=options.get("env"), cwd=options.get("cwd"))
        return replay(cassette, command, **options)

    return run
