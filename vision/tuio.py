"""TUIO 2.0 output over OSC/UDP, so reacTIVision-style clients can use the tracker.

Each processed frame is one OSC bundle: ``/tuio2/frm`` (frame id, time, sensor size, source),
one ``/tuio2/tok`` per tag on the table (session id, type/user id, the tag id as component id,
normalised x and y, angle in radians), and ``/tuio2/alv`` listing the live session ids. A tag
gets a new session id each time it is put back on the table after having been lifted.
"""

from __future__ import annotations

import math
import struct
import time
from collections.abc import Iterable

from pythonosc import osc_bundle_builder, osc_message_builder, udp_client
from pythonosc.osc_bundle import OscBundle
from pythonosc.osc_message import OscMessage
from pythonosc.parsing import osc_types

from vision.tracking import LIFTED, LOST, Track

DEFAULT_TUIO = ("127.0.0.1", 3333)
_NTP_OFFSET = 2208988800  # seconds from 1900 (NTP epoch) to 1970 (Unix epoch)


def _timetag(unix_seconds: float) -> bytes:
    seconds = int(unix_seconds) + _NTP_OFFSET
    fraction = int((unix_seconds % 1.0) * (1 << 32)) & 0xFFFFFFFF
    return struct.pack(">II", seconds & 0xFFFFFFFF, fraction)


def frame_message(frame_id: int, unix_time: float, width: int, height: int, source: str) -> OscMessage:
    """``/tuio2/frm f_id t_time dim source`` (python-osc's builder cannot write timetags, so by hand)."""
    dgram = (osc_types.write_string("/tuio2/frm") + osc_types.write_string(",itis")
             + osc_types.write_int(frame_id & 0x7FFFFFFF) + _timetag(unix_time)
             + osc_types.write_int(((width & 0xFFFF) << 16) | (height & 0xFFFF)) + osc_types.write_string(source))
    return OscMessage(dgram)


class TuioSender:
    """Turns the tracker's tracks into TUIO 2.0 bundles sent to ``host:port`` over UDP."""

    def __init__(self, host: str = DEFAULT_TUIO[0], port: int = DEFAULT_TUIO[1],
                 area_mm: tuple[float, float, float, float] = (0.0, 0.0, 1000.0, 1000.0),
                 sensor_size: tuple[int, int] = (1920, 1080), source: str = "hexa-vision:0") -> None:
        self._client = udp_client.UDPClient(host, port)
        self.area_mm, self.sensor_size, self.source = area_mm, sensor_size, source
        self._frame_id = 0
        self._next_session = 1
        self._sessions: dict[int, int] = {}

    def bundle(self, tracks: Iterable[Track], unix_time: float | None = None) -> OscBundle:
        """Build the bundle for one frame (also updates the session ids)."""
        x0, y0, x1, y1 = self.area_mm
        self._frame_id += 1
        builder = osc_bundle_builder.OscBundleBuilder(osc_bundle_builder.IMMEDIATELY)
        builder.add_content(frame_message(self._frame_id, time.time() if unix_time is None else unix_time,
                                          *self.sensor_size, self.source))
        alive: list[int] = []
        present: set[int] = set()
        for track in tracks:
            if track.state in (LIFTED, LOST):
                continue
            present.add(track.marker_id)
            session = self._sessions.get(track.marker_id)
            if session is None:
                session = self._sessions[track.marker_id] = self._next_session
                self._next_session += 1
            tok = osc_message_builder.OscMessageBuilder("/tuio2/tok")
            tok.add_arg(session, "i")
            tok.add_arg(0, "i")  # type id 0 (generic token), user id 0
            tok.add_arg(track.marker_id, "i")
            tok.add_arg((track.x_mm - x0) / (x1 - x0), "f")
            tok.add_arg((track.y_mm - y0) / (y1 - y0), "f")
            tok.add_arg(math.radians(track.angle_deg) % (2 * math.pi), "f")
            builder.add_content(tok.build())
            alive.append(session)
        for marker_id in list(self._sessions):
            if marker_id not in present:
                del self._sessions[marker_id]  # lifted: it gets a new session when it comes back
        alv = osc_message_builder.OscMessageBuilder("/tuio2/alv")
        for session in alive:
            alv.add_arg(session, "i")
        builder.add_content(alv.build())
        return builder.build()

    def send(self, tracks: Iterable[Track], unix_time: float | None = None) -> None:
        self._client.send(self.bundle(tracks, unix_time))

    def close(self) -> None:
        self._client.close()
