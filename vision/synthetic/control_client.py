"""The synthetic table's control client: what a program that moves figures on it needs (the demo's hand, tools and
tests), without the table itself (its renderer and dice tray load OpenCV and numba, a second of a demo's start).

The requests and replies are described in :mod:`vision.synthetic.control`, which serves them.
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

import zmq

from engine.i18n import gettext_for

_ = gettext_for(__name__)

DEFAULT_CONTROL = "tcp://127.0.0.1:5557"


class ControlError(ValueError):
    """A control request that cannot be carried out, or a socket that cannot be opened; says the fix."""


class TableControlClient:
    """Sends control requests to a synthetic table (the demo's hand, tools and tests)."""

    def __init__(self, endpoint: str = DEFAULT_CONTROL, context: zmq.Context[zmq.Socket[bytes]] | None = None,
                 timeout_s: float = 3.0) -> None:
        self.endpoint, self.timeout_s = endpoint, timeout_s
        self._socket = (context or zmq.Context.instance()).socket(zmq.DEALER)
        self._socket.setsockopt(zmq.LINGER, 0)
        self._socket.connect(endpoint)
        self._ids = itertools.count(1)

    def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """One command; raises :class:`ControlError` with the table's reason, ``TimeoutError`` if nobody answers."""
        request_id = next(self._ids)
        self._socket.send(json.dumps({"cmd": cmd, "id": request_id, **fields}).encode())
        deadline = time.monotonic() + self.timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._socket.poll(int(remaining * 1000), zmq.POLLIN):
                raise TimeoutError(_("the synthetic table at {endpoint} did not answer {cmd!r} within "
                                     "{timeout_s:.0f} s: is 'hexa vision --synthetic … --control' running?",
                                     endpoint=self.endpoint, cmd=cmd, timeout_s=self.timeout_s))
            reply = json.loads(self._socket.recv())
            if reply.get("id") not in (request_id, None):
                continue  # the late answer of a request that timed out
            if not reply.get("ok"):
                raise ControlError(_("the synthetic table refused {cmd!r}: {get}", cmd=cmd, get=reply.get('error')))
            return dict(reply)

    def place(self, marker: int, x_mm: float, y_mm: float, angle_deg: float | None = None,
              height_mm: float | None = None) -> float:
        fields: dict[str, Any] = {"marker": marker, "x_mm": x_mm, "y_mm": y_mm}
        if angle_deg is not None:
            fields["angle_deg"] = angle_deg
        if height_mm is not None:
            fields["height_mm"] = height_mm
        return float(self.request("place", **fields)["seconds"])

    def lift(self, marker: int) -> None:
        self.request("lift", marker=marker)

    def remove(self, marker: int) -> None:
        self.request("remove", marker=marker)

    def markers(self) -> dict[int, dict[str, Any]]:
        return {int(m["marker"]): m for m in self.request("list")["markers"]}

    def roll(self, dice: list[tuple[str, int]], tray: str = "tray", **hard: bool) -> float:
        """Throw ``dice`` ((kind, value) pairs) into ``tray``; ``hard``: glare/touching/cocked/outside flags.
        Returns the seconds until the last die rests."""
        fields: dict[str, Any] = {"tray": tray, "dice": [{"kind": k, "value": v} for k, v in dice], **hard}
        return float(self.request("roll", **fields)["seconds"])

    def clear_tray(self, tray: str = "tray") -> None:
        self.request("clear_tray", tray=tray)

    def close(self) -> None:
        self._socket.close(linger=0)
