"""The camera service publishes ``dice`` over a real ZeroMQ socket; the synthetic table throws on command."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
import zmq

from calibration.tray_spec import tray_spec
from engine import wire
from engine.wire import DiceMessage, TraySeen
from tests.waiting import WAIT_S
from vision.client import TracksSubscriber
from vision.detection import MarkerDetector
from vision.dice.reader import DiceReader
from vision.publisher import VisionPublisher
from vision.service import ServiceConfig, VisionService, jsonl_record, process_frame
from vision.sources import SyntheticSource
from vision.synthetic.control import ControlError, ControlledTable, ControlServer, TableControlClient
from vision.synthetic.dice_scenes import CONDITIONS, DiceScene
from vision.tracking import Tracker

FRAMES_TO_CONFIRM = 12


def test_dice_thrown_on_command_are_published_read_and_decode_with_the_wire_schema() -> None:
    scene = DiceScene(CONDITIONS["plain"], seed=21)
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    table = ControlledTable(scene.table.figures, scene.table.size_mm, (scene.tray,))
    control = ControlServer("tcp://127.0.0.1:*", table, context)
    source = SyntheticSource(scene.renderer, table, fps=30.0, realtime=False, trays=(scene.tray,))
    publisher = VisionPublisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", camera_id="cam", context=context)
    sub = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context, topics=(wire.TOPIC_DICE,))
    service = VisionService(ServiceConfig(camera_id="cam"), MarkerDetector(), scene.camera, publisher,
                            dice=DiceReader(camera=scene.camera))
    runner = threading.Thread(target=service.run_sequential, args=(source,), daemon=True)
    client = TableControlClient(control.endpoint, context, timeout_s=WAIT_S)
    runner.start()
    try:
        with pytest.raises(ControlError, match="tray 'tray9' is not on this synthetic table"):
            client.roll([("d6", 3)], tray="tray9")
        with pytest.raises(ControlError, match="a d6 shows 1 to 6"):
            client.roll([("d6", 7)])
        client.roll([("d6", 5), ("d6", 2), ("d6", 6)])
        read: DiceMessage | None = None
        deadline = time.monotonic() + 4 * WAIT_S
        while read is None and time.monotonic() < deadline:
            message = sub.receive(WAIT_S)
            assert message is None or isinstance(message, DiceMessage)
            if message is not None and message.trays and message.trays[0].settled:
                read = message
        assert read is not None, "a settled tray was published"
        tray = read.trays[0]
        assert read.camera_id == "cam" and tray.tray == "tray" and tray.roll >= 1
        assert sorted(d.value for d in tray.dice if d.read and d.value is not None) == [2, 5, 6], tray
        assert sub.malformed == 0
        client.clear_tray()
        deadline = time.monotonic() + 4 * WAIT_S
        emptied = False
        while not emptied and time.monotonic() < deadline:
            message = sub.receive(WAIT_S)
            emptied = isinstance(message, DiceMessage) and bool(message.trays) and message.trays[0].dice == ()
        assert emptied, "the picked-up dice leave the tray"
    finally:
        service.stop()
        runner.join(WAIT_S)
        client.close()
        control.close()
        sub.close()
        publisher.close()
        context.term()


def test_a_trays_own_tags_are_read_as_the_tray_never_tracked_as_figures() -> None:
    """The tray mat's corner tags locate the tray for the dice reader; published as tracks, the engine would call
    them unknown markers and ask the players to assign them to figures."""
    scene = DiceScene(CONDITIONS["plain"], seed=5)
    table = ControlledTable(scene.table.figures, scene.table.size_mm, (scene.tray,))
    source = SyntheticSource(scene.renderer, table, fps=30.0, realtime=False, trays=(scene.tray,))
    reader, tracker, tray_tags = DiceReader(camera=scene.camera), Tracker(), set(tray_spec("tray").tag_centres)
    tracked: set[int] = set()
    for _ in range(FRAMES_TO_CONFIRM):  # long enough for any tag in view to become a confirmed track
        frame = source.read()
        assert frame is not None
        result = process_frame(frame, MarkerDetector(), scene.camera, tracker, ServiceConfig(camera_id="cam"),
                               dice=reader)
        assert tray_tags <= {m.marker_id for m in result.detected}, "the tray's tags are in view"
        assert result.trays and result.trays[0].tray == "tray", "and the tray is read from them"
        assert result.update is not None
        tracked |= {t.marker_id for t in result.update.tracks}
    assert not tracked & tray_tags, tracked



Reader = TypeVar("Reader", bound=DiceReader)


@contextmanager
def live_tray_service(reader: Reader, scene: DiceScene, topics: tuple[bytes, ...], let_go: threading.Event,
                      heartbeat_s: float = 1.0) -> Iterator[TracksSubscriber]:
    """A camera service reading ``scene``'s synthetic table as a live camera (trays read on their own thread) with
    ``reader``, publishing over real sockets; yields a subscriber to ``topics``. ``let_go`` is set before the service
    stops, so that a reader the test holds back lets its thread end."""
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    table = ControlledTable(scene.table.figures, scene.table.size_mm, (scene.tray,))
    source = SyntheticSource(scene.renderer, table, fps=30.0, realtime=True, trays=(scene.tray,))
    publisher = VisionPublisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", camera_id="cam", context=context)
    sub = TracksSubscriber(publisher.endpoint, publisher.snapshot_endpoint, context, topics=topics)
    service = VisionService(ServiceConfig(camera_id="cam", heartbeat_s=heartbeat_s), MarkerDetector(), scene.camera,
                            publisher, dice=reader)
    runner = threading.Thread(target=service.run_live, args=(lambda: source,), kwargs={"retry_s": 0.05},
                              daemon=True)
    runner.start()
    try:
        yield sub
    finally:
        let_go.set()
        service.stop()
        runner.join(WAIT_S)
        sub.close()
        publisher.close()
        context.term()


class HeldReader(DiceReader):
    """The service's own reader, each read held until the test lets it go (a roll's first reading is slow)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.holding = threading.Event()
        self.release = threading.Event()

    def read(self, image: Any, markers: list[Any], now: float) -> list[TraySeen]:
        self.holding.set()
        assert self.release.wait(4 * WAIT_S), "the test never let the read go"
        return super().read(image, markers, now)


def test_from_a_live_camera_the_tags_go_on_while_the_dice_are_read() -> None:
    """A live camera's trays are read on a thread of their own: while a read takes its time, the frames after it
    still have their tags published; its dice follow once read."""
    reader = HeldReader(camera=(scene := DiceScene(CONDITIONS["plain"], seed=21)).camera)
    with live_tray_service(reader, scene, (wire.TOPIC_TRACKS, wire.TOPIC_DICE), reader.release) as sub:
        assert reader.holding.wait(4 * WAIT_S), "the dice thread got a frame"
        tracks_while_held: list[int] = []
        deadline = time.monotonic() + 4 * WAIT_S
        while len(tracks_while_held) < 3 and time.monotonic() < deadline:
            message = sub.receive(WAIT_S)
            assert not isinstance(message, DiceMessage), "no dice published while the read is held"
            if isinstance(message, wire.TracksMessage):
                tracks_while_held.append(message.frame_index)
        assert len(tracks_while_held) >= 3, "frames' tags published while their dice wait"
        reader.release.set()
        dice: DiceMessage | None = None
        deadline = time.monotonic() + 4 * WAIT_S
        while dice is None and time.monotonic() < deadline:
            message = sub.receive(WAIT_S)
            if isinstance(message, DiceMessage):
                dice = message
            elif isinstance(message, wire.TracksMessage):
                assert not {t.id for t in message.markers} & reader.tag_ids, "a tray's tags are no figures"
        assert dice is not None and dice.trays and dice.trays[0].tray == "tray", dice
        assert dice.frame_index < max(tracks_while_held), "the dice of a frame older than the tags sent meanwhile"


def test_a_calibrated_frame_with_dice_gives_its_jsonl_line_with_every_tag_and_the_dice() -> None:
    """The tray's tags are left out of the figures tracked, not out of the frame's tags: each tag found keeps its
    place on the table beside it (once, the line could not be written at all: the two lists no longer paired)."""
    scene = DiceScene(CONDITIONS["plain"], seed=5)
    table = ControlledTable(scene.table.figures, scene.table.size_mm, (scene.tray,))
    frame = SyntheticSource(scene.renderer, table, fps=30.0, realtime=False, trays=(scene.tray,)).read()
    assert frame is not None
    reader = DiceReader(camera=scene.camera)
    result = process_frame(frame, MarkerDetector(), scene.camera, Tracker(), ServiceConfig(camera_id="cam"),
                           dice=reader)
    record = jsonl_record(result)
    ids = [m["id"] for m in record["markers"]]
    assert sorted(ids) == sorted(m.marker_id for m in result.detected) and reader.tag_ids & set(ids)
    assert all("x_mm" in m for m in record["markers"]), "every tag placed on the table"
    assert not any("state" in m for m in record["markers"] if m["id"] in reader.tag_ids), "the tray's are not tracked"
    assert record["dice"] == []  # nothing thrown yet
