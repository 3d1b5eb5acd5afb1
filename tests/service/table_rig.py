"""One synthetic table end to end, as the table-level service tests use it: the camera service drawing a scenario
(with its hand's control socket), the engine service reading that camera, and a tablet's client — real processes
and sockets."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import zmq

from engine.service.client import EngineClient
from engine.wire import TableViewMessage
from tests.app.engine_process import EngineProcess, VisionProcess
from tests.waiting import WAIT_S
from vision.synthetic.control import TableControlClient

START_S = 90.0  # the camera service renders and detects its first frames; the engine hears them


class SyntheticTable:
    """The processes of one table drawn from ``scenario`` and a tablet's view of the engine."""

    def __init__(self, scenario: str) -> None:
        self.context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
        self.vision = VisionProcess(scenario, preview_fps=0.0, control=True)
        cameras = f"{self.vision.pub},{self.vision.snapshot}"
        self.engine = EngineProcess(scenario, extra=["--vision", cameras])
        self.tablet = EngineClient(self.engine.pub, self.engine.commands, self.context)
        assert self.vision.control is not None
        self.hand = TableControlClient(self.vision.control, self.context, timeout_s=START_S)
        self.views: list[TableViewMessage] = []  # the engine's table views, as they came

    @property
    def view(self) -> TableViewMessage | None:
        """The newest table view."""
        return self.views[-1] if self.views else None

    def figures(self) -> dict[str, dict[str, Any]]:
        assert self.tablet.game is not None
        figures: dict[str, dict[str, Any]] = self.tablet.game["state"]["figures"]
        return figures

    def wait(self, what: str, holds: Callable[[], bool], timeout_s: float = WAIT_S) -> None:
        """Follow the engine's updates until ``holds`` (the state, the table message or the newest table view)."""
        deadline = time.monotonic() + timeout_s
        while not holds():
            if time.monotonic() > deadline:
                game = self.tablet.game
                raise AssertionError(f"waited {timeout_s:.0f} s for {what}; table: {self.tablet.table}\n"
                                     f"figures: {game['state']['figures'] if game else None}\n"
                                     f"engine log:\n{self.engine.log_text()[-3000:]}\n"
                                     f"camera log:\n{self.vision.log_text()[-2000:]}")
            message = self.tablet.poll(0.2)
            if isinstance(message, TableViewMessage):
                self.views.append(message)

    def close(self) -> None:
        self.hand.close()
        self.tablet.close()
        self.engine.stop()
        self.vision.stop()
        self.context.term()
