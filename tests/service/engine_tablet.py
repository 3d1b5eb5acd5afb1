"""A tablet's client on a real engine process serving one scenario, and the two requests rule-set tests make of it.

The rule sets' service tests (Race, Tenkey, Laramie, Lost Worlds) play a game by commands through this, as a
tablet would: the engine runs in a process of its own (``tests.app.engine_process``), the client syncs like the
app's agent, and the engine's log is printed when a test fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import zmq

from engine.service.client import EngineClient
from tests.app.engine_process import EngineProcess
from tests.waiting import WAIT_S


@contextmanager
def tablet_on(scenario: str) -> Iterator[EngineClient]:
    """A synced client of an engine serving ``scenario`` (a bundled id or a path; the process inherits
    HEXA_RULESETS); the engine's log is printed if the block fails."""
    engine = EngineProcess(scenario=scenario)
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    client = EngineClient(engine.pub, engine.commands, context)
    try:
        client.sync(WAIT_S)  # the request waits in the socket until the engine is up
        yield client
    except BaseException:
        print(engine.log_text()[-3000:])
        raise
    finally:
        client.close()
        context.term()
        engine.stop()


def act(tablet: EngineClient, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Send ``action`` as a tablet does; the events it caused (the test fails on a refusal)."""
    reply = tablet.request("action", WAIT_S, action=action)
    assert reply.ok, reply.error
    events: list[dict[str, Any]] = reply.fields["events"]
    return events


def game_of(tablet: EngineClient) -> dict[str, Any]:
    """The whole game as a snapshot gives it (state, prompt, history)."""
    game: dict[str, Any] = tablet.request("snapshot", WAIT_S).fields["game"]
    return game


def prompt_of(tablet: EngineClient) -> dict[str, Any]:
    """The prompt the game waits on."""
    prompt: dict[str, Any] = game_of(tablet)["prompt"]
    return prompt
