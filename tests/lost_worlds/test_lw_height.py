"""Battle range across height differences and effective height: the original's worked examples and their rule."""

from __future__ import annotations

import pytest

from engine.rules.lost_worlds import height
from engine.rules.lost_worlds.combat import modifier_text
from tests.lost_worlds.tower import game, tower

STEP = """
0   4   0
  0   0
"""


def test_height_3_on_level_0_against_height_6_on_level_4_is_not_in_range() -> None:
    assert not height.in_battle_range(0, 3, 4, 6)


def test_swapped_height_6_on_level_0_against_height_3_on_level_4_is_in_range() -> None:
    assert height.in_battle_range(0, 6, 4, 3)


@pytest.mark.parametrize(("low_height", "diff", "in_range"), [(3, 2, True), (3, 3, False), (4, 3, True), (1, 1, False)])
def test_the_lower_characters_height_must_exceed_the_level_difference(low_height: int, diff: int,
                                                                      in_range: bool) -> None:
    assert height.in_battle_range(0, low_height, diff, 9) is in_range
    assert height.in_battle_range(diff, 9, 0, low_height) is in_range  # whoever is named first


def test_same_level_neighbours_are_always_in_range_and_non_neighbours_never() -> None:
    assert height.in_battle_range(2, 1, 2, 1)
    assert not height.in_battle_range(0, 9, 0, 9, adjacent=False)


def test_the_dwarf_on_level_4_gets_plus_2_against_the_troll_on_level_0() -> None:
    assert height.effective_height(3, 4) == 7 and height.effective_height(5, 0) == 5
    assert height.height_modifier(3, 4, 5, 0) == 2
    assert height.height_modifier(5, 0, 3, 4) == -2


def test_the_engine_reads_the_examples_off_the_board() -> None:
    s = tower(STEP, ({"name": "Small", "side": "a", "at": "A1", "height": 3},
                     {"name": "Tall", "side": "b", "at": "C1", "height": 6}))
    g = game(s)
    rules = g.rules
    small, tall = g.state.figures["small"], g.state.figures["tall"]
    assert s.board.level(tall.hex) == 4 and s.board.level(small.hex) == 0
    assert small.hex is not None and tall.hex is not None and small.hex.distance(tall.hex) == 2
    # Put them next to each other: the small one below at B1 (level 0) and the tall one on C1 (level 4).
    g.state.put("small", s.board.from_label("B1"))
    assert not rules.spaces.in_range(small, tall)  # type: ignore[attr-defined]
    dwarf_text = modifier_text(rules, tall, small)  # type: ignore[arg-type]
    assert "Tall 6 + level 4 = 10" in dwarf_text and "Small 3 + level 0 = 3" in dwarf_text and "+7 to the Tall" \
        in dwarf_text


def test_swapped_on_the_board_they_are_in_range() -> None:
    s = tower(STEP, ({"name": "Small", "side": "a", "at": "C1", "height": 3},
                     {"name": "Tall", "side": "b", "at": "B1", "height": 6}))
    g = game(s)
    assert g.rules.spaces.in_range(g.state.figures["small"], g.state.figures["tall"])  # type: ignore[attr-defined]


def test_climbing_costs_a_point_per_level_and_a_move_one() -> None:
    assert height.step_cost(0, 0, 1, 1) == 1
    assert height.step_cost(0, 3, 1, 1) == 3
    assert height.step_cost(4, 1, 1, 1) == 3


@pytest.mark.parametrize(("start", "landing", "top", "allowed"), [
    (0, 1, 0, True),    # one level up is fine
    (0, 2, 0, False),   # never two or more levels above the start
    (3, 0, 0, True),    # down any number
    (2, 2, 2, True),    # a pit or flat floor between
    (2, 2, 3, False),   # higher than both
    (3, 1, 2, False),   # higher than the landing only: "higher than either" forbids it
    (1, 3, 2, False),   # and too high a landing anyway
    (3, 3, 3, True),    # level with both
])
def test_jumping_limits(start: int, landing: int, top: int, allowed: bool) -> None:
    assert (height.can_jump(start, landing, top) == "") is allowed
