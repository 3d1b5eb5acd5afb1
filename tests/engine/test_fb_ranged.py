"""Fantasy Battle shooting and magic: restrictions, low obstacles, unclear lines, hits and saves."""

import pytest
from fb_tables import Choose, Move, Roll, h, make_game

from engine.board import Terrain
from engine.lines import Sight
from engine.prompts import PromptKind

# Column C runs straight down: the line C1 → C5 passes through the centres of C2, C3 and C4.
COLUMN = """
.   A   .
  .   .
.   2   .
  .   .
.   3   .
  .   .
.   4   .
  .   .
.   e   .
  .   .
"""


def column(**cells: str) -> str:
    """COLUMN with hexes 2, 3, 4 of column C replaced (e.g. c3="F", c4="o")."""
    text = COLUMN
    for key, value in (("2", cells.get("c2", ".")), ("3", cells.get("c3", ".")), ("4", cells.get("c4", "."))):
        text = text.replace(key, value)
    return text


def target(game, shooter: str = "A", tgt: str = "e"):
    return next(t for t in game.targets(shooter) if t.target == tgt)


def test_a_clear_shot_is_offered_in_the_ranged_phase() -> None:
    game = make_game(column(), kinds={"A": "archer"})
    info = target(game)
    assert info.allowed and info.sight is Sight.CLEAR and info.range == 4
    p = game.prompt
    assert p.kind is PromptKind.CHOOSE and p.option("A>e") and p.option("done")


def test_a_friend_on_the_line_of_fire_forbids_the_shot_and_is_named() -> None:
    game = make_game(column(c3="F"), kinds={"A": "archer"})
    info = target(game)
    assert not info.allowed and info.sight is Sight.BLOCKED and info.blocker == h("C3")
    assert "your F at C3" in info.reason


def test_enemies_on_the_line_do_not_block() -> None:
    game = make_game(column(c3="g"), kinds={"A": "archer"})
    assert target(game).allowed


def test_a_low_obstacle_next_to_the_target_blocks_the_shot() -> None:
    game = make_game(column(c4="o"), kinds={"A": "archer"})
    info = target(game)
    assert game.scenario.board.terrain(h("C4")) is Terrain.LOW_OBSTACLE
    assert not info.allowed and "low obstacle at C4 next to the target" in info.reason


def test_a_low_obstacle_next_to_the_shooter_is_shot_over() -> None:
    assert target(make_game(column(c2="o"), kinds={"A": "archer"})).allowed


def test_a_low_obstacle_next_to_neither_is_shot_over() -> None:
    assert target(make_game(column(c3="o"), kinds={"A": "archer"})).allowed


def test_a_low_obstacle_next_to_both_shooter_and_target_is_shot_over() -> None:
    game = make_game(column(c3="A").replace(".   A   .", ".   .   .", 1).replace("4", "o"), kinds={"A": "archer"})
    assert game.state.figures["A"].hex == h("C3")
    assert target(game).allowed


def test_blocking_hexes_and_walls_block_sight() -> None:
    assert target(make_game(column(c3="#"), kinds={"A": "archer"})).sight is Sight.BLOCKED
    info = target(make_game(column(), kinds={"A": "archer"}, walls=["C3|C4"]))
    assert info.sight is Sight.BLOCKED and "the wall at C3|C4" in info.reason


def test_no_shooting_when_next_to_an_enemy() -> None:
    game = make_game(column(c2="g"), kinds={"A": "archer"})
    info = target(game)
    assert not info.allowed and "next to an enemy cannot shoot" in info.reason


def test_no_shooting_at_an_enemy_next_to_a_friend() -> None:
    drawing = column().replace(".   .\n.   e   .", ".   F\n.   e   .")  # F at D4 touches C5
    info = target(make_game(drawing, kinds={"A": "archer"}))
    assert not info.allowed and "next to your F" in info.reason


def test_scenario_range_limit() -> None:
    info = target(make_game(column(), kinds={"A": "archer"}, options="shooting_range = 3"))
    assert not info.allowed and info.reason == "range 4, the scenario limits shots to 3"


# A1 → C4 runs exactly along the edge A2|B1, then through B2's centre, then along B3|C3.
DIAGONAL = """
A   .   .
  .   .
.   .   .
  .   .
.   .   .
  .   .
.   e   .
  .   .
"""


def test_a_line_along_a_wall_is_ambiguous_and_needs_a_roll_off() -> None:
    game = make_game(DIAGONAL, kinds={"A": "archer"}, walls=["A2|B1"])
    info = target(game)
    assert info.allowed and info.sight is Sight.AMBIGUOUS and "roll-off" in info.reason
    assert "wall at A2|B1" in info.reason


def test_a_line_grazing_a_friend_is_ambiguous_but_friends_on_both_sides_block() -> None:
    one = DIAGONAL.replace(".   .   .\n  .   .\n.   .   .", "F   .   .\n  .   .\n.   .   .", 1)
    assert target(make_game(one, kinds={"A": "archer"})).sight is Sight.AMBIGUOUS
    both = DIAGONAL.replace("A   .   .\n  .   .\n.   .   .", "A   .   .\n  G   .\nF   .   .", 1)
    info = target(make_game(both, kinds={"A": "archer"}))
    assert info.sight is Sight.BLOCKED and not info.allowed


def test_roll_off_a_tie_fails_and_spends_the_shooters_action() -> None:
    drawing = DIAGONAL.replace("A   .   .", "A   .   B", 1)
    game = make_game(drawing, kinds={"A": "archer"}, walls=["A2|B1"])
    game.apply(Choose("A>e"))
    p = game.prompt
    assert p.kind is PromptKind.ROLL and len(p.dice) == 2 and "only by rolling higher" in p.text
    assert p.chances[0].probability == pytest.approx(15 / 36)
    game.apply(Roll((3, 3)))
    assert game.state.in_set("acted", "A")
    assert game.prompt.option("A") is None  # it does nothing else this turn


def test_roll_off_won_then_hit_then_the_target_rolls_to_survive() -> None:
    game = make_game(DIAGONAL, kinds={"A": "archer"}, walls=["A2|B1"])
    game.apply(Choose("A>e"))
    game.apply(Roll((4, 3)))
    assert "4–6 hits" in game.prompt.text
    game.apply(Roll((4,)))
    p = game.prompt
    assert p.side == "blue" and "5–6 shrugs it off" in p.text
    game.apply(Roll((4,)))
    assert not game.state.figures["e"].alive


def test_a_miss_and_a_shrugged_hit_leave_the_target_standing() -> None:
    game = make_game(column() + "", kinds={"A": "archer"})
    game.apply(Choose("A>e"))
    game.apply(Roll((3,)))
    assert game.state.figures["e"].alive and "miss" in [e.kind for e in game.history[-1].events]
    game = make_game(column(), kinds={"A": "archer"})
    game.apply(Choose("A>e"))
    game.apply(Roll((6,)))
    game.apply(Roll((5,)))
    assert game.state.figures["e"].alive


def test_wizards_shrug_off_hits_on_4_to_6() -> None:
    game = make_game(column(), kinds={"A": "archer", "e": "wizard"})
    game.apply(Choose("A>e"))
    game.apply(Roll((5,)))
    assert "4–6 shrugs it off" in game.prompt.text
    game.apply(Roll((4,)))
    assert game.state.figures["e"].alive


def test_magic_reaches_five_hexes_needs_sight_ignores_friends_and_kills_on_6() -> None:
    game = make_game(column(c3="F"), kinds={"A": "wizard"})
    info = target(game)
    assert info.action == "cast" and info.allowed  # a friend on the line does not stop magic
    far = make_game(column() + ".   .   .\n  .   .\n.   .   .\n  .   .\n", kinds={"A": "wizard"})
    assert target(far).allowed
    longer = column().replace(".   e   .", ".   .   .") + ".   .   .\n  .   .\n.   e   .\n  .   .\n"
    info = target(make_game(longer, kinds={"A": "wizard"}))
    assert not info.allowed and info.reason == "range 6, wizards reach 5"
    assert target(make_game(column(c3="#"), kinds={"A": "wizard"})).sight is Sight.BLOCKED
    game.apply(Choose("A>e"))
    assert "6 kills" in game.prompt.text
    game.apply(Roll((5,)))
    assert game.state.figures["e"].alive
    game = make_game(column(), kinds={"A": "wizard"})
    game.apply(Choose("A>e"))
    game.apply(Roll((6,)))
    assert not game.state.figures["e"].alive


def test_a_wizard_that_cast_does_not_move() -> None:
    game = make_game(column().replace(".   A   .", "B   A   .", 1), kinds={"A": "wizard"})
    game.apply(Choose("A>e"))
    game.apply(Roll((2,)))  # the spell fails; nobody else can shoot: on to movement
    assert game.prompt.option("A") is None and game.prompt.option("B") is not None


def test_points_fighters_one_ranged_two_cards_one_more() -> None:
    game = make_game(column().replace(".   A   .", "B   A   W", 1), kinds={"A": "archer", "W": "wizard"})
    assert game.points() == {"red": 5, "blue": 1}


def test_victory_by_carrying_the_treasure_out() -> None:
    drawing = """
X   .   .   .
  .   T   .
.   .   .   .
  K   .   .
.   .   .   e
  .   .   .
"""
    victory = (
        '[[victory]]\nside = "red"\ntype = "bring"\ntoken = "treasure"\nto = ["A1"]\ntext = "the gold is out"\n'
        '[[victory]]\nside = "blue"\ntype = "destroy"\n'
    )
    game = make_game(drawing, victory=victory)
    game.apply(Choose("K"))
    game.apply(Roll((2,)))
    game.apply(Move("K", h("D1")))
    assert game.state.figures["K"].carrying == ["treasure"] and game.state.tokens["treasure"] is None
    game.apply(Choose("end"))
    game.apply(Choose("K"))
    game.apply(Roll((6,)))
    game.apply(Move("K", h("A1")))
    assert game.state.winner == "red" and game.prompt.kind is PromptKind.GAME_OVER
    assert "the gold is out" in game.history[-1].events[-1].text


def test_a_carrier_that_dies_drops_the_token_where_it_fell() -> None:
    drawing = """
X   .   .
  T   .
.   .   e
  K   .
.   .   .
  .   .
"""
    victory = '[[victory]]\nside = "blue"\ntype = "bring"\ntoken = "treasure"\nto = ["A1"]\n'
    game = make_game(drawing, victory=victory, start=False)
    game.apply(Roll((1, 6)))  # blue first
    game.apply(Choose("e"))
    game.apply(Roll((6,)))
    game.apply(Move("e", h("B1")))  # picks up the treasure; B1 touches K at B2: combat
    assert game.state.figures["e"].carrying == ["treasure"]
    game.apply(Roll((1, 6)))  # K kills e
    assert game.state.tokens["treasure"] == h("B1")
