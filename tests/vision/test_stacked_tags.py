"""A stack on the synthetic table: figures set side by side in one hex as the demo's hand and a player do (those
there pushed apart for the newcomer), each tag seen by the camera and located in that hex (50 mm hexes, 22 mm tags)."""

from __future__ import annotations

import pytest

from calibration.camera_model import CameraModel
from companion_app.demo.table_moves import make_room, place_on
from engine.scenario import load_scenario
from vision.detection import MarkerDetector
from vision.synthetic.demo_scene import table_centre
from vision.synthetic.renderer import TableRenderer
from vision.synthetic.scenario_scene import scenario_table


@pytest.mark.parametrize("cell", ["F4", "B2", "N1"])
@pytest.mark.parametrize("count", [2, 3, 4])
def test_every_tag_of_a_stack_is_seen_on_its_hex(cell: str, count: int) -> None:
    scenario = load_scenario("laramie-station")
    table, heights = scenario_table(scenario)
    camera = CameraModel.synthetic(look_at_mm=table_centre(table))
    hex_ = scenario.board.from_label(cell)
    stack = [f for f in scenario.figures][:count]
    markers: dict[int, dict[str, object]] = {}
    figures = list(table.figures)
    for spec in stack:  # the hand slides the stack apart and sets each figure down in the place left
        for move in [*make_room(scenario, spec.id, hex_, markers), place_on(scenario, spec.id, hex_, markers)]:
            markers[move.marker] = {"x_mm": move.x_mm, "y_mm": move.y_mm, "state": "on_table"}
            i = next(i for i, f in enumerate(figures) if f.marker_id == move.marker)
            figures[i] = figures[i].moved(move.x_mm, move.y_mm)
    frame = TableRenderer(camera, table).render(tuple(figures))
    seen = {m.marker_id: m for m in MarkerDetector().detect(frame.image)}
    for spec in stack:
        assert spec.marker_id in seen, f"{spec.name}'s tag (marker {spec.marker_id}) in a stack of {count} on {cell}"
        x, y = camera.table_from_pixels([seen[spec.marker_id].centre_px], heights[spec.marker_id])[0][:2]
        assert scenario.board.locate(float(x), float(y)) == hex_
