"""Maps drawn as staggered ASCII art read back into the right hexes."""

import pytest

from engine.board import Terrain
from engine.board.hex.ascii_map import board_from_drawing, parse_levels, parse_map, render_map
from engine.errors import MapError
from engine.hexes import Orientation, from_label, to_label

FLAT = """
    .   #   T   .
      o   .   k   -
    .   ~   .   X
      .   .   .   .
"""


def test_flat_drawing_places_columns_and_rows_by_label() -> None:
    drawn = parse_map(FLAT)
    assert drawn.tiles[from_label("C1")].terrain is Terrain.BLOCKING
    assert drawn.tiles[from_label("B1")].terrain is Terrain.LOW_OBSTACLE
    assert drawn.tiles[from_label("E1")].tokens == ("treasure",)
    assert to_label(drawn.only("k")) == "F1"
    assert from_label("H1") not in drawn.tiles  # '-' is no tile
    assert drawn.tiles[from_label("C2")].terrain is Terrain.WATER
    assert drawn.tiles[from_label("G2")].tokens == ("exit",)
    assert len(drawn.tiles) == 15


def test_odd_columns_sit_half_a_hex_lower() -> None:
    drawn = parse_map(FLAT)
    a1, b1, a2 = from_label("A1"), from_label("B1"), from_label("A2")
    # In odd-q, B1 touches both A1 and A2.
    assert a1.distance(b1) == 1 and a2.distance(b1) == 1
    assert set(drawn.tiles) >= {a1, b1, a2}


def test_render_parses_back_to_the_same_tiles() -> None:
    board, _ = board_from_drawing(FLAT)
    again, _ = board_from_drawing(render_map(board))
    assert again.tiles == board.tiles


def test_pointy_drawing_round_trips() -> None:
    text = """
    .   .   #
      .   o   .
    T   .   .
    """
    board, _ = board_from_drawing(text, orientation=Orientation.POINTY)
    assert board.terrain(from_label("C1", Orientation.POINTY)) is Terrain.BLOCKING
    again, _ = board_from_drawing(render_map(board), orientation=Orientation.POINTY)
    assert again.tiles == board.tiles


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (".  .", "off the hex grid"),
        (".   !", "unknown map symbol '!'"),
        ("-   -", "no tiles"),
    ],
)
def test_bad_drawings_say_where_and_what(text: str, message: str) -> None:
    with pytest.raises(MapError, match=message):
        parse_map(text)


def test_level_layer() -> None:
    levels = parse_levels("""
    0   2   .
      1   -   3
    """)
    assert levels[from_label("C1")] == 2
    assert levels[from_label("F1")] == 3
    assert from_label("A1") in levels and levels[from_label("A1")] == 0


def test_rendered_headers_name_columns_and_rows() -> None:
    board, _ = board_from_drawing(FLAT)
    text = render_map(board, headers=True)
    assert "A" in text.splitlines()[0] and "B" in text.splitlines()[1]
    assert text.splitlines()[2].startswith("  1 ")
