"""table.view sightings on the wire: the tag's angle and the facing read from it, optional for older engines."""

from __future__ import annotations

import pytest

from engine.wire import FigureSighting, WireError

PLAIN = {"marker": 1, "figure": "knight", "x_mm": 1.0, "y_mm": 2.0, "hex": [1, 1], "state": "settled",
         "cameras": ["0:top"]}


def test_angle_and_direction_round_trip_and_are_optional() -> None:
    seen = FigureSighting(1, "knight", 1.0, 2.0, [1, 1], "settled", ("0:top",), -120.0, 4)
    assert FigureSighting.from_dict(seen.to_dict(), "table.view.figures[0]") == seen
    older = FigureSighting.from_dict(PLAIN, "table.view.figures[0]")
    assert older.angle_deg is None and older.direction is None


@pytest.mark.parametrize(("direction", "bad"), [(6, "6"), (True, "True"), ("left", "'left'")])
def test_a_direction_that_is_no_board_direction_is_refused_by_name(direction: object, bad: str) -> None:
    with pytest.raises(WireError, match=rf"table.view.figures\[0\].direction: expected a board direction 0..5 "
                                        rf"or null, got {bad}"):
        FigureSighting.from_dict({**PLAIN, "direction": direction}, "table.view.figures[0]")
