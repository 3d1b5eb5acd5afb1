"""TUIO 2.0 output over OSC/UDP, so reacTIVision-style clients can use the tracker.

Each processed frame is one OSC bundle: ``/tuio2/frm`` (frame id, time, dimension, source), one
``/tuio2/tok`` per tag on the table (session id, type/user id, the tag id as component id,
normalised x and y, angle in radians), and ``/tuio2/alv`` listing the live session ids.

- Positions are fractions of the table area (:class:`vision.area.TableArea`), clamped to 0..1;
  the frame's dimension field is that area's width and height in millimetres (16 bits each).
- Frame ids and session ids count hundredths of a second of the wall clock (at least one more
  than the previous id), so after a restart they continue above the previous run's and clients
  that drop "late" frames accept the new run at once. They wrap after 2^31 (about 248 days).
- A tag gets a new session id each time it is put back on the table after having been lifted.
- :meth:`TuioSender.close` sends a last frame with nothing alive, as the reference server does
  on shutdown, so that clients remove every token instead of keeping the last frame's forever.
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

from vision.area import TableArea
from vision.tracking import LIFTED, LOST, Track

DEFAULT_TUIO = ("127.0.0.1", 3333)
DEFAULT_AREA = TableArea(0.0, 0.0, 1000.0, 1000.0)  # without a calibration or synthetic board: a 1 m square
_NTP_OFFSET = 2208988800  # seconds from 1900 (NTP epoch) to 1970 (Unix epoch)
_ID_TICKS_PER_S = 100
_ID_MASK = 0x7FFFFFFF  # OSC int32, positive for every client


def _timetag(unix_seconds: float) -> bytes:
    seconds = int(unix_seconds) + _NTP_OFFSET
    fraction = int((unix_seconds % 1.0) * (1 << 32)) & 0xFFFFFFFF
    return struct.pack(">II", seconds & 0xFFFFFFFF, fraction)


def frame_message(frame_id: int, unix_time: float, width: int, height: int, source: str) -> OscMessage:
    """``/tuio2/frm f_id t_time dim source`` (python-osc's builder cannot write timetags, so by hand)."""
    dgram = (osc_types.write_string("/tuio2/frm") + osc_types.write_string(",itis")
             + osc_types.write_int(frame_id & _ID_MASK) + _timetag(unix_time)
             + osc_types.write_int(((width & 0xFFFF) << 16) | (height & 0xFFFF)) + osc_types.write_string(source))
    return OscMessage(dgram)


class RisingIds:
    """Ids that grow with the wall clock and by at least one per call, so a new run starts above the last."""

    def __init__(self) -> None:
        self._last = 0

    def next(self, unix_time: float) -> int:
        ticks = int(unix_time * _ID_TICKS_PER_S) & _ID_MASK
        value = ticks if ticks > self._last else (self._last + 1) & _ID_MASK
        self._last = value or 1  # 0 is reserved by TUIO 2.0
        return self._last


class TuioSender:
    """Turns the tracker's tracks into TUIO 2.0 bundles sent to ``host:port`` over UDP."""

    def __init__(self, host: str = DEFAULT_TUIO[0], port: int = DEFAULT_TUIO[1], area: TableArea = DEFAULT_AREA,
                 source: str = "hexa-vision:0") -> None:
        self._client: udp_client.UDPClient | None = udp_client.UDPClient(host, port)
        self.area, self.source = area, source
        self.dimension = (min(round(area.width_mm), 0xFFFF), min(round(area.height_mm), 0xFFFF))
        self._frame_ids = RisingIds()
        self._session_ids = RisingIds()
        self._sessions: dict[int, int] = {}
        self._last_time = 0.0

    def bundle(self, tracks: Iterable[Track], unix_time: float | None = None) -> OscBundle:
        """Build the bundle for one frame (also updates the session ids)."""
        now = time.time() if unix_time is None else unix_time
        self._last_time = now
        builder = osc_bundle_builder.OscBundleBuilder(osc_bundle_builder.IMMEDIATELY)
        builder.add_content(frame_message(self._frame_ids.next(now), now, *self.dimension, self.source))
        alive: list[int] = []
        present: set[int] = set()
        for track in tracks:
            if track.state in (LIFTED, LOST):
                continue
            present.add(track.marker_id)
            session = self._sessions.get(track.marker_id)
            if session is None:
                session = self._sessions[track.marker_id] = self._session_ids.next(now)
            x, y = self.area.normalised(track.x_mm, track.y_mm)
            tok = osc_message_builder.OscMessageBuilder("/tuio2/tok")
            tok.add_arg(session, "i")
            tok.add_arg(0, "i")  # type id 0 (generic token), user id 0
            tok.add_arg(track.marker_id, "i")
            tok.add_arg(x, "f")
            tok.add_arg(y, "f")
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
        if self._client is not None:
            self._client.send(self.bundle(tracks, unix_time))

    def close(self) -> None:
        """Say that nothing is alive any more (one empty frame), then close the socket; safe to call twice."""
        if self._client is None:
            return
        try:
            self.send([], max(time.time(), self._last_time))
        except OSError:
            pass  # nobody listening, or the network is gone: nothing to tell
        finally:
            self._client.close()
            self._client = None
