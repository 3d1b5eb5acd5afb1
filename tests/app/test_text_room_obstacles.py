"""The text room knows the board's visible area, its walls and its figures' facing marks: a text reaching past the
area's edge is moved in (never clipped at the window's edge), and no text lies on a wall or a facing wedge."""

from __future__ import annotations

import pytest

from companion_app.ui import text_room
from companion_app.ui.text_room import GLYPH_SHARE, TextRoom
from tests.app.test_text_room import fake_texture


@pytest.fixture(autouse=True)
def _fake_font(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_room, "text_texture", fake_texture)


def _width(label: str, h: float, px: int = 24) -> float:
    tex = fake_texture(label, px)
    return h * tex.width / tex.height


def test_a_status_line_at_the_left_edge_is_moved_in_not_clipped() -> None:
    room = TextRoom(2.0, bounds=(0.0, 0.0, 200.0, 100.0))
    fitted = room.fit("normal · HP 6 · hero", (5.0, 50.0), 4.0, 24)
    assert fitted is not None
    h, (cx, cy) = fitted
    w = _width("normal · HP 6 · hero", h)
    assert cx - w / 2 == pytest.approx(0.0) and cy == 50.0
    assert room.placed[-1][1][0] >= 0.0


def test_a_text_wider_than_the_visible_board_is_dropped() -> None:
    room = TextRoom(2.0, bounds=(0.0, 0.0, 20.0, 100.0))
    assert room.fit("a very long status line indeed", (10.0, 50.0), 4.0, 24) is None


def test_a_zone_keeps_its_names_inside_it() -> None:
    room = TextRoom(2.0, bounds=(0.0, 0.0, 300.0, 300.0))
    zone = (0.0, 0.0, 60.0, 60.0)
    fitted = room.fit("hawk eye · precise shooting", (30.0, 10.0), 3.0, 24, within=zone)
    assert fitted is None or (fitted[1][0] - _width("hawk eye · precise shooting", fitted[0]) / 2 >= 0.0
                              and fitted[1][0] + _width("hawk eye · precise shooting", fitted[0]) / 2 <= 60.0)
    assert room.fit("Wren", (55.0, 10.0), 3.0, 24, within=zone) is not None
    assert room.placed[-1][1][2] <= 60.0


def test_no_text_on_a_wall() -> None:
    room = TextRoom(2.0)
    room.add_stroke((50.0, 0.0), (50.0, 100.0), 1.0)  # a wall running down x = 50
    assert room.fit("Goblin Chief", (50.0, 40.0), 4.0, 24) is None  # across it
    assert room.fit("Goblin Chief", (80.0, 40.0), 4.0, 24) is not None  # beside it
    w = _width("Goblin", 4.0)
    assert room.fit("Goblin", (50.0 - 1.2 - w / 2, 70.0), 4.0, 24) is not None  # just clear of its width


def test_no_text_on_a_facing_mark_and_a_copy_keeps_the_marks() -> None:
    room = TextRoom(2.0)
    room.add_mark([(10.0, 10.0), (20.0, 15.0), (10.0, 20.0)])  # a wedge
    copy = room.copy()
    g = 4.0 * GLYPH_SHARE / 2
    assert room.fit("HP 3", (15.0, 15.0), 4.0, 24) is None
    assert copy.fit("HP 3", (15.0, 15.0), 4.0, 24) is None
    assert room.fit("HP 3", (15.0, 20.0 + g + 0.1), 4.0, 24) is not None  # just below its lowest point


def test_texts_keep_apart_as_before() -> None:
    room = TextRoom(2.0, bounds=(0.0, 0.0, 100.0, 100.0))
    assert room.fit("Tom", (50.0, 50.0), 4.0, 24) is not None
    assert room.fit("Joe", (51.0, 51.0), 4.0, 24) is None


def test_a_stroke_told_apart_by_its_extent_is_one_the_geometry_finds_apart_too() -> None:
    """The quick test of a stroke against a box (their extents apart) agrees with the whole geometry, touching
    included, on random walls and boxes of the sizes a board has."""
    import random

    rng = random.Random(7)
    hits = 0
    for _ in range(20000):
        a = (rng.uniform(0, 60), rng.uniform(0, 60))
        b = (a[0] + rng.choice((0.0, rng.uniform(-20, 20))), a[1] + rng.choice((0.0, rng.uniform(-20, 20))))
        half = rng.choice((0.0, 0.5, rng.uniform(0, 3)))
        x, y = rng.uniform(0, 60), rng.uniform(0, 60)
        box = (x, y, x + rng.uniform(0, 15), y + rng.uniform(0, 5))
        expected = text_room._stroke_touches((a, b, half), box)
        assert text_room._stroke_hits((a, b, half), box) == expected, (a, b, half, box)
        hits += expected
    assert 300 < hits < 19700  # both answers were tried often
