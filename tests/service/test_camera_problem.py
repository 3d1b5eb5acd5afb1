"""A camera service that runs but cannot read its dice tray says so in its heartbeat; the engine passes it on in the
table's camera links until a heartbeat says all is well again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import zmq

from engine import wire
from engine.service.client import EngineClient
from engine.service.server import ServerConfig
from engine.wire import CameraLink, Heartbeat
from tests.service.conftest import serve_engine
from tests.service.test_camera_curve import ANY, camera_link_until
from vision.publisher import VisionPublisher

PROBLEM = "the dice tray could not be read in 40 frames (ValueError: no paper colour)"


def test_the_engine_passes_a_camera_s_problem_on_and_clears_it(context: zmq.Context[zmq.Socket[bytes]],
                                                                tmp_path: Path) -> None:
    camera_context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    camera = VisionPublisher(ANY, ANY, camera_id="cam0", context=camera_context)
    config = ServerConfig(pub=ANY, commands=ANY, vision=[(camera.endpoint, camera.snapshot_endpoint)])
    _, server, thread = serve_engine(context, str(tmp_path / "journal.sqlite"), "tutorial", config)
    tablet = EngineClient(server.pub_endpoint, server.commands_endpoint, context)
    try:
        tablet.sync()
        link = camera_link_until(tablet, camera, lambda link: link.problem == PROBLEM, problem=PROBLEM)
        assert link.status == "ok"  # the tags still work: the camera is not down, its dice are
        assert camera_link_until(tablet, camera, lambda link: link.problem == "").status == "ok"
    finally:
        server.stop()
        thread.join(5.0)
        tablet.close()
        camera.close()
        camera_context.term()


def test_the_problem_is_optional_and_checked_on_the_wire() -> None:
    beat = Heartbeat(seq=1, sent_at=1.0, camera_id="cam0", status="ok", fps=30.0, last_tracks_seq=4, problem=PROBLEM)
    assert wire.decode(beat.to_frames()) == beat
    older = {"id": "cam0", "status": "ok", "last_seen_age_s": 0.1}  # an engine from before the problem
    assert CameraLink.from_dict(older, "table.cameras[0]").problem == ""
    assert CameraLink.from_dict({**older, "problem": PROBLEM}, "table.cameras[0]").problem == PROBLEM
    with pytest.raises(wire.WireError, match=r"table.cameras\[0\].problem"):
        CameraLink.from_dict({**older, "problem": 7}, "table.cameras[0]")
    topic, payload = beat.to_frames()
    older_beat = {k: v for k, v in json.loads(payload).items() if k != "problem"}  # a camera service from before it
    decoded = wire.decode([topic, json.dumps(older_beat).encode()])
    assert isinstance(decoded, Heartbeat) and decoded.problem == ""
    with pytest.raises(wire.WireError, match=r"heartbeat.*problem"):
        wire.decode([topic, json.dumps({**older_beat, "problem": ["no"]}).encode()])
