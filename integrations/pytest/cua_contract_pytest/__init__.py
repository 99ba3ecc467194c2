"""Run a harness under `cua-contract replay` from Python tests (standard library only).

    from cua_contract_pytest import replay
    result = replay("cassettes/login", ["python3", "harness.py"], faults={"rules": [...]})
    result.assert_passed()

With pytest, load the plugin (`-p cua_contract_pytest.plugin`, or
`pytest_plugins = ["cua_contract_pytest.plugin"]` in conftest.py) for the `cua_replay` fixture and
the `cua_record` marker (re-recorded in record mode, grown with the calls it lacks in record-missing
mode). docs/testing.md has the details.
"""
from .runner import (
    MODES,
    ReplayResult,
    Violation,
    build_record_argv,
    build_record_missing_argv,
    build_replay_argv,
    find_cli,
    observe,
    record,
    record_missing,
    replay,
    resolve_mode,
)

__all__ = [
    "MODES",
    "ReplayResult",
    "Violation",
    "build_record_argv",
    "build_record_missing_argv",
    "build_replay_argv",
    "find_cli",
    "observe",
    "record",
    "record_missing",
    "replay",
    "resolve_mode",
]
