"""A table with a game master on real sockets: a Filtwiz engine in a thread, tablets synced to it, and the keyed
table whose GM is the tablet ``gm-tablet`` (CURVE keys from ``hexa keys``), for the GM's and the roles' tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import zmq

from engine.service.client import EngineClient
from engine.service.keys import main as keys_main
from engine.service.security import load_client_keys
from engine.service.server import ServerConfig
from tests.service.conftest import ANY_PORT, serve_engine
from tests.waiting import WAIT_S

SCENARIO = "filtwiz-river-ambush"
GM_TABLET = "gm-tablet"


class Engine:
    """A Filtwiz engine in a thread and a tablet synced to it."""

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]], journal: Path, config: ServerConfig,
                 scenario: str = SCENARIO) -> None:
        self.context = context
        self.session, self.server, self.thread = serve_engine(context, str(journal), scenario, config)
        self.tablets: list[EngineClient] = []

    def tablet(self, **kw: Any) -> EngineClient:
        client = EngineClient(self.server.pub_endpoint, self.server.commands_endpoint, self.context, **kw)
        client.sync(WAIT_S)
        self.tablets.append(client)
        return client

    def stop(self) -> None:
        for t in self.tablets:
            t.close()
        self.server.stop()
        self.thread.join(5.0)
        assert not self.thread.is_alive()


def engine_on(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path, scenario: str = SCENARIO,
              **config: Any) -> Engine:
    """An engine on the journal ``tmp_path/journal.sqlite`` (the same one each time: a second call resumes)."""
    return Engine(context, tmp_path / "journal.sqlite", ServerConfig(pub=ANY_PORT, commands=ANY_PORT, **config),
                  scenario)


def table_keys(tmp_path: Path, *clients: str) -> Path:
    """Keys made by ``hexa keys`` for the tablets ``clients`` (the engine's own client key comes with them)."""
    keys = tmp_path / "keys"
    assert keys_main(["--dir", str(keys), *(arg for name in clients for arg in ("--client", name))]) == 0
    return keys


@contextmanager
def keyed_table(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[tuple[Engine, EngineClient, EngineClient]]:
    """An engine with CURVE keys whose GM is the tablet ``gm-tablet``: the engine, that tablet and a player's."""
    keys = table_keys(tmp_path, GM_TABLET, "player")
    engine = engine_on(context, tmp_path, keys_dir=keys, gm=GM_TABLET)
    try:
        master = engine.tablet(keys=load_client_keys(keys, GM_TABLET))
        player = engine.tablet(keys=load_client_keys(keys, "player"))
        yield engine, master, player
    finally:
        engine.stop()
