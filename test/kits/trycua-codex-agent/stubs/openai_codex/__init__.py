"""Stand-in for the Codex Python SDK (`openai_codex`), the model side of codex_agent.py.

The real package runs the Codex agent (an OpenAI model and its loop) and cannot be installed
here (no package index reachable, and the model needs the network). This stand-in keeps the
names codex_agent.py imports and answers the one task without acting on the desktop, so the
kit exercises what the program itself does through `cua-driver call`: the session it opens
before the agent runs and closes after. It records nothing and sends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass


class Sandbox:
    read_only = "read-only"


@dataclass(frozen=True)
class CodexConfig:
    config_overrides: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunResult:
    final_response: str


class Thread:
    def __init__(self, config: CodexConfig, sandbox: str) -> None:
        self._config = config
        self._sandbox = sandbox

    async def run(self, prompt: str) -> RunResult:
        # What a careful model would answer when it may not act: name what was asked of it.
        servers = sorted(
            {o.split(".")[1] for o in self._config.config_overrides if o.startswith("mcp_servers.")}
        )
        asked = "session" in prompt and "cua_driver" in prompt
        return RunResult(
            final_response=(
                f"[stub model] task read ({'session named' if asked else 'no session named'}); "
                f"MCP servers offered: {', '.join(servers)}; sandbox {self._sandbox}; "
                "no desktop action taken, nothing verified"
            )
        )


class AsyncCodex:
    def __init__(self, config: CodexConfig) -> None:
        self._config = config

    async def __aenter__(self) -> "AsyncCodex":
        return self

    async def __aexit__(self, *_error: object) -> None:
        return None

    async def thread_start(self, *, model: str | None = None, sandbox: str) -> Thread:
        return Thread(self._config, sandbox)
