"""TUIO 2.0 as an OSC library that is not ours decodes it: liblo (C), through its Python binding.

The sender under test sends UDP to a random loopback port; each datagram is passed on unchanged
to a liblo server listening on a Unix socket (the binding can only bind UDP on every interface).
liblo parses the bundle and hands over each message with its type tags; this module only checks
them against the TUIO 2.0 layout (``/tuio2/frm`` ``itis``, ``/tuio2/tok`` ``iiifff``,
``/tuio2/alv`` all ``i``) and groups them into frames.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyliblo3 as liblo

_NTP_OFFSET = 2208988800


@dataclass
class Token:
    session: int
    type_user: int
    component: int
    x: float
    y: float
    angle: float


@dataclass
class TuioFrame:
    frame_id: int = -1
    unix_time: float = 0.0
    dimension: tuple[int, int] = (0, 0)
    source: str = ""
    tokens: list[Token] = field(default_factory=list)
    alive: tuple[int, ...] | None = None


class LibloTuioReceiver:
    """Collects the frames a TUIO 2.0 sender sends to :attr:`port` on 127.0.0.1."""

    def __init__(self) -> None:
        self._dir = tempfile.mkdtemp(prefix="tuio")  # short: Unix socket paths are limited to ~100 bytes
        self._path = str(Path(self._dir) / "liblo.sock")
        self._server = liblo.Server(self._path, liblo.UNIX)
        self._server.add_bundle_handlers(self._start, self._end)
        self._server.add_method(None, None, self._message)
        self._udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._udp.bind(("127.0.0.1", 0))
        self._relay = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.port: int = self._udp.getsockname()[1]
        self.frames: list[TuioFrame] = []
        self.problems: list[str] = []
        self._current: TuioFrame | None = None

    def _start(self, _timetag: float, _user: Any) -> None:
        self._current = TuioFrame()

    def _end(self, _user: Any) -> None:
        if self._current is not None:
            self.frames.append(self._current)
        self._current = None

    def _message(self, path: str, args: list[Any], types: str, _src: Any) -> None:
        frame = self._current
        if frame is None:
            self.problems.append(f"{path} outside a bundle")
            return
        if path == "/tuio2/frm" and types == "itis":
            frame.frame_id, tag, dim, frame.source = args
            frame.unix_time = tag - _NTP_OFFSET
            frame.dimension = ((dim >> 16) & 0xFFFF, dim & 0xFFFF)
        elif path == "/tuio2/tok" and types == "iiifff":
            frame.tokens.append(Token(*args))
        elif path == "/tuio2/alv" and set(types) <= {"i"}:
            frame.alive = tuple(args)
        else:
            self.problems.append(f"unexpected {path} ,{types}")

    def receive(self, until: Callable[[list[TuioFrame]], bool], timeout_s: float = 10.0) -> list[TuioFrame]:
        """Relay datagrams to liblo until ``until(frames)`` holds; fails after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while not until(self.frames):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"TUIO frames not as expected within {timeout_s} s: got {len(self.frames)}")
            self._udp.settimeout(remaining)
            try:
                data = self._udp.recv(65536)
            except TimeoutError:
                continue
            self._relay.sendto(data, self._path)
            self._server.recv(1000)  # liblo dispatches the datagram just relayed
        return self.frames

    def close(self) -> None:
        self._udp.close()
        self._relay.close()
        self._server.free()
        shutil.rmtree(self._dir, ignore_errors=True)
