"""The demo's hand sets the figures of a stack side by side in their hex, so that the camera sees every tag."""

from __future__ import annotations

from companion_app.demo.table_moves import place_on
from engine.scenario import load_scenario


def test_a_stack_is_set_side_by_side_inside_its_hex() -> None:
    scenario = load_scenario("laramie-station")
    hex_ = scenario.board.from_label("F5")
    spots = [place_on(scenario, "gary", hex_, slot) for slot in range(3)]
    points = [(m.x_mm, m.y_mm) for m in spots]
    assert len(set(points)) == 3  # three places, none on another
    for x, y in points:
        assert scenario.layout.mm_to_hex(x, y) == hex_  # each still inside the hex
    (cx, _), (x1, _) = points[0], points[1]
    assert abs(x1 - cx) >= 20.0  # about a tag's width apart
