"""A dice tray that cannot be read costs its frames their dice, never their tags; the players are told (the
heartbeat's ``problem``) until it reads again, and the log holds one traceback and then a line now and then."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest

from engine import wire
from engine.wire import Heartbeat, TraySeen
from tests.vision.test_dice_service import live_tray_service
from tests.waiting import WAIT_S
from vision.detection import MarkerDetector
from vision.dice.read_failures import ReadFailures
from vision.dice.reader import DiceReader
from vision.service import ServiceConfig, jsonl_record, process_frame
from vision.sources import SyntheticSource
from vision.synthetic.control import ControlledTable
from vision.synthetic.dice_scenes import CONDITIONS, DiceScene
from vision.tracking import Tracker


class BrokenReader(DiceReader):
    """A reader whose every read fails until the test mends it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mended = threading.Event()

    def read(self, image: Any, markers: list[Any], now: float) -> list[TraySeen]:
        if not self.mended.is_set():
            raise ValueError("the paper's colour is NaN")
        return super().read(image, markers, now)


def test_a_streak_of_failures_logs_one_traceback_then_a_line_now_and_then(caplog: pytest.LogCaptureFixture
                                                                         ) -> None:
    clock = [0.0]
    failures = ReadFailures(logging.getLogger("test.dice"), "dice", every_s=30.0, clock=lambda: clock[0])
    caplog.set_level(logging.INFO, logger="test.dice")
    assert failures.problem == ""
    for second in range(61):  # a frame a second for a minute, every one failing
        clock[0] = float(second)
        failures.failed(ValueError("no paper colour\nsecond line"), f"f{second}")
    records = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(records) == 3  # the first (with its traceback), then at 30 s and 60 s
    assert records[0].exc_info is not None and "frame f0 could not be read" in records[0].getMessage()
    assert "31 frames in a row" in records[1].getMessage() and records[1].exc_info is None
    assert "61 frames" in failures.problem and "ValueError: no paper colour)" in failures.problem
    failures.read()
    assert failures.problem == "" and failures.total == 61
    assert "read again after 61 frames" in caplog.records[-1].getMessage()
    failures.failed(KeyError("tray"), "g0")  # a new streak starts with its own traceback
    assert caplog.records[-1].exc_info is not None and "1 frames" in failures.problem


def test_a_frame_whose_tray_fails_keeps_its_tags_and_says_why() -> None:
    scene = DiceScene(CONDITIONS["plain"], seed=5)
    table = ControlledTable(scene.table.figures, scene.table.size_mm, (scene.tray,))
    frame = SyntheticSource(scene.renderer, table, fps=30.0, realtime=False, trays=(scene.tray,)).read()
    assert frame is not None
    result = process_frame(frame, MarkerDetector(), scene.camera, Tracker(), ServiceConfig(camera_id="cam"),
                           dice=BrokenReader(camera=scene.camera))
    assert result.detected and result.placed is not None, "the tags were still found and placed"
    assert result.trays is None and isinstance(result.dice_error, ValueError)
    record = jsonl_record(result)
    assert record["markers"] and "dice" not in record
    assert record["dice_error"] == "ValueError: the paper's colour is NaN"


def test_a_live_camera_whose_tray_fails_tells_the_engine_until_it_reads_again() -> None:
    reader = BrokenReader(camera=(scene := DiceScene(CONDITIONS["plain"], seed=21)).camera)
    topics = (wire.TOPIC_TRACKS, wire.TOPIC_HEARTBEAT, wire.TOPIC_DICE)
    with live_tray_service(reader, scene, topics, reader.mended, heartbeat_s=0.1) as sub:
        problem, tracks = "", 0
        deadline = time.monotonic() + 4 * WAIT_S
        while not (problem and tracks) and time.monotonic() < deadline:
            message = sub.receive(WAIT_S)
            assert not isinstance(message, wire.DiceMessage), "no dice from a tray that fails"
            if isinstance(message, Heartbeat) and message.status == "ok":  # not while the camera first opens
                problem = message.problem
            tracks += isinstance(message, wire.TracksMessage)
        assert "the dice tray could not be read" in problem and "the paper's colour is NaN" in problem
        assert tracks, "the tags go on while the tray fails"
        reader.mended.set()
        dice = cleared = False
        deadline = time.monotonic() + 4 * WAIT_S
        while not (dice and cleared) and time.monotonic() < deadline:
            message = sub.receive(WAIT_S)
            dice = dice or isinstance(message, wire.DiceMessage)
            cleared = cleared or (dice and isinstance(message, Heartbeat) and message.problem == "")
        assert dice and cleared, "once the tray reads again, its dice go out and the problem is gone"
