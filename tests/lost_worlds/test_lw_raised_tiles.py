"""A figure on a raised tile, seen by a camera: its tag stands level × level height + its tag height above the
table, and the engine places it there (the camera service computed the position for the tag height alone)."""

from __future__ import annotations

import math
from pathlib import Path

from calibration.camera_model import CameraModel
from engine.parallax import on_raised_tile, reproject
from engine.scenario import load_scenario
from engine.service.session import CameraView, open_session
from engine.wire import MarkerTrack, TracksMessage, decode

TOWER = "lost-worlds-ruined-tower"


def camera() -> CameraModel:
    return CameraModel.synthetic(look_at_mm=(150.0, 100.0), tilt_deg=25.0)


def seen_at(cam: CameraModel, x: float, y: float, true_mm: float, assumed_mm: float) -> tuple[float, float]:
    """Where the camera service puts a tag really at ``true_mm`` when it assumes ``assumed_mm``."""
    px = cam.project([(x, y, true_mm)])
    (tx, ty), = cam.table_from_pixels(px, assumed_mm)
    return float(tx), float(ty)


def test_reprojecting_along_the_camera_ray_finds_the_true_position() -> None:
    cam = camera()
    x, y = 420.0, 260.0
    tx, ty = seen_at(cam, x, y, 130.0, 30.0)
    assert math.dist((tx, ty), (x, y)) > 20.0  # the uncorrected error: about a hex's half
    cx, cy, cz = (float(v) for v in cam.camera_position_mm)
    fx, fy = reproject(tx, ty, (cx, cy, cz), 30.0, 130.0)
    assert math.dist((fx, fy), (x, y)) < 0.01


def test_a_camera_below_the_tag_leaves_the_position_alone() -> None:
    assert reproject(10.0, 20.0, (0.0, 0.0, 50.0), 30.0, 130.0) == (10.0, 20.0)


def test_the_tile_under_the_corrected_position_decides_the_lift() -> None:
    s = load_scenario(TOWER)
    cam = camera()
    cx, cy, cz = (float(v) for v in cam.camera_position_mm)
    balcony = s.board.from_label("I5")
    assert s.board.level(balcony) == 5
    x, y = s.board.centre_mm(balcony)
    tag = s.tag_height_mm(s.figure("skeleton"), balcony)
    assert tag == 5 * 20.0 + 30.0
    tx, ty = seen_at(cam, x, y, tag, 30.0)
    assert s.board.locate(tx, ty) != balcony  # taken as seen, the skeleton would stand on another hex

    def lift_at(px: float, py: float) -> float:
        return s.board.level(s.board.locate(px, py)) * s.level_height_mm

    fx, fy = on_raised_tile(tx, ty, 30.0, (cx, cy, cz), lift_at)
    assert s.board.locate(fx, fy) == balcony and math.dist((fx, fy), (x, y)) < 0.5


def test_the_engine_service_places_a_figure_on_the_balcony(tmp_path: Path) -> None:
    session = open_session(str(tmp_path / "journal.sqlite"), TOWER, new=True)
    try:
        s = session.scenario
        cam = camera()
        balcony = s.board.from_label("I5")
        x, y = s.board.centre_mm(balcony)
        tx, ty = seen_at(cam, x, y, s.tag_height_mm(s.figure("skeleton"), balcony), 30.0)
        marker = s.figure("skeleton").marker_id
        track = MarkerTrack(marker, tx, ty, 0.0, "settled", 0.9, 0.0, 0.0, 30.0)
        position = tuple(round(float(v), 2) for v in cam.camera_position_mm)
        message = TracksMessage(seq=1, sent_at=0.0, camera_id="0", frame_index=1, captured_at=0.0,
                                markers=(track,), camera_mm=position)  # type: ignore[arg-type]
        # The message survives the wire with the camera's position and the tag height it was computed for.
        again = decode(message.to_frames())
        assert isinstance(again, TracksMessage) and again.camera_mm == position
        assert again.markers[0].height_mm == 30.0
        session.cameras["0:0"] = CameraView(again)
        session.refresh_table()
        fused = session.fused[marker]
        assert math.dist((fused.x_mm, fused.y_mm), (x, y)) < 0.5
        # Without the camera's position nothing can be corrected: the figure appears where it was computed.
        session.cameras["0:0"] = CameraView(TracksMessage(seq=2, sent_at=0.0, camera_id="0", frame_index=2,
                                                          captured_at=0.0, markers=(track,)))
        session.refresh_table()
        assert math.dist((session.fused[marker].x_mm, session.fused[marker].y_mm), (tx, ty)) < 0.01
    finally:
        session.close()


def test_a_step_of_a_move_is_taken_by_putting_the_figure_down_on_the_table() -> None:
    from engine.actions import Choose, Roll
    from engine.game import Game
    from engine.table_fusion import FusedMarker
    from engine.table_sync import TableSync

    s = load_scenario(TOWER)
    g = Game(s)
    g.apply(Roll((6, 1)))
    g.apply(Choose("knight"))

    def table(knight_at: str) -> dict[int, FusedMarker]:
        out = {}
        for f in s.figures:
            x, y = s.board.centre_mm(s.board.from_label(knight_at) if f.id == "knight" else f.start)
            out[f.marker_id] = FusedMarker(f.marker_id, x, y, "settled", 0.9, ("cam",))
        return out

    sync = TableSync(s)
    sync.observe(table("A1"), g)
    assert sync.step(g).action is None
    sync.observe(table("B1"), g)
    assert sync.step(g).action == Choose("to-B1")
