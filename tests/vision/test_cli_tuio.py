"""``hexa vision --tuio`` on the synthetic scenario table, read by liblo: the board fills the TUIO square,
and ``--area`` keeps tracking the tags outside it."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest
from tuio_decoder import LibloTuioReceiver

from calibration.camera_model import CameraModel
from engine.cli.main import main as hexa
from engine.scenario import load_scenario
from vision.area import drawing_area, seen_area
from vision.synthetic.scenario_scene import scenario_table

FRAMES = 8


@pytest.fixture
def receiver() -> Iterator[LibloTuioReceiver]:
    receiver = LibloTuioReceiver()
    yield receiver
    receiver.close()


def test_the_scenario_board_fills_the_tuio_square(receiver: LibloTuioReceiver,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    scenario = load_scenario("tutorial")
    board = drawing_area(scenario_table(scenario)[0])
    assert hexa(["vision", "--synthetic", "tutorial", "--fast", "--frames", str(FRAMES), "--no-publish",
                 "--tuio", f"127.0.0.1:{receiver.port}"]) == 0
    frames = receiver.receive(lambda got: len(got) > FRAMES)  # every frame, then the goodbye frame
    assert receiver.problems == []
    assert f"positions over the table area {board}" in capsys.readouterr().err
    assert frames[-1].alive == () and frames[-1].tokens == []
    assert {f.dimension for f in frames} == {(round(board.width_mm), round(board.height_mm))}
    tokens = {t.component: t for t in frames[-2].tokens}
    assert set(tokens) == {f.marker_id for f in scenario.figures} | set(scenario.anchors)
    for figure in scenario.figures:
        x, y = scenario.layout.hex_to_mm(figure.start)
        token = tokens[figure.marker_id]
        assert token.x == pytest.approx((x - board.x0) / board.width_mm, abs=1.0 / board.width_mm)
        assert token.y == pytest.approx((y - board.y0) / board.height_mm, abs=1.0 / board.height_mm)
    xs = [t.x for f in frames for t in f.tokens]
    ys = [t.y for f in frames for t in f.tokens]
    assert min(xs) >= 0.0 and max(xs) <= 1.0 and min(ys) >= 0.0 and max(ys) <= 1.0
    assert max(xs) - min(xs) > 0.6 and max(ys) - min(ys) > 0.6  # the board spreads over the square


def test_tags_outside_the_area_stay_tracked_clamped_and_are_warned_about_once(
        receiver: LibloTuioReceiver, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    scenario = load_scenario("tutorial")
    board = drawing_area(scenario_table(scenario)[0])
    rightmost = max(scenario.figures, key=lambda f: scenario.layout.hex_to_mm(f.start)[0])
    edge = scenario.layout.hex_to_mm(rightmost.start)[0] - 15.0  # its tag stands 15 mm past the right edge
    caplog.set_level(logging.WARNING)
    assert hexa(["vision", "--synthetic", "tutorial", "--fast", "--frames", str(FRAMES), "--no-publish",
                 "--jsonl", "-", f"--area={board.x0},{board.y0},{edge},{board.y1}",  # = : it starts with a minus
                 "--tuio", f"127.0.0.1:{receiver.port}"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for line in lines[2:]:  # a tag is reported from its second sighting on
        [marker] = [m for m in line["markers"] if m["id"] == rightmost.marker_id]
        assert marker["state"] in ("moving", "settled")
        assert any(f"marker {rightmost.marker_id} at" in w and "outside the table area" in w for w in line["warnings"])
    said = [r.getMessage() for r in caplog.records if "outside the table area" in r.getMessage()]
    assert sum(s.startswith(f"marker {rightmost.marker_id} at") for s in said) == 1, said  # once, not per frame
    frames = receiver.receive(lambda got: len(got) > FRAMES)
    sessions = set()
    for frame in frames[2:-1]:
        [token] = [t for t in frame.tokens if t.component == rightmost.marker_id]
        assert token.x == 1.0  # clamped onto the edge
        sessions.add(token.session)
    assert len(sessions) == 1  # never removed and added again


def test_a_calibrated_cameras_default_area_is_the_table_it_sees(camera: CameraModel) -> None:
    area = seen_area(camera)
    assert area is not None
    w, h = camera.image_size
    corners = camera.table_from_pixels([[0.0, 0.0], [w - 1.0, 0.0], [0.0, h - 1.0], [w - 1.0, h - 1.0]])
    for x, y in corners:
        assert area.contains(x, y)
    centre = camera.table_from_pixels([[w / 2, h / 2]])[0]
    assert area.contains(*centre)
    assert area.width_mm > 100 and area.height_mm > 100
