"""The auto player knows no rule set: it answers from the prompt and the goals the rule set offers, within a bound."""

from io import StringIO
from pathlib import Path

import pytest
from fb_tables import Choose, Roll, h, make_game

import engine.autoplay as autoplay
from engine.autoplay import AutoPlayer, AutoPlayError, play_out
from engine.cli import play as play_cli
from engine.game import Game
from engine.prompts import PromptKind
from engine.scenario import load_scenario

OPEN = """
.   .   .   .   .
  .   .   .   .
.   K   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   b
"""


def test_the_auto_player_reads_nothing_of_a_rule_set() -> None:
    source = Path(autoplay.__file__).read_text(encoding="utf-8")
    for word in ("fantasy_battle", "FigureKind", "state.step", "v.type", "save_at", '"select"', '"retreat"'):
        assert word not in source


def test_moves_head_for_the_goals_the_rule_set_offers() -> None:
    game = make_game(OPEN)
    game.apply(Choose("K"))
    game.apply(Roll((6,)))
    assert game.prompt.kind is PromptKind.MOVE
    start = game.state.figures["K"].hex
    assert start is not None
    for goal in (h("A1"), h("E3")):
        game.rules.goals = lambda state, figure, goal=goal: [goal]  # type: ignore[method-assign]
        move = AutoPlayer(0).choose(game)
        assert isinstance(move, autoplay.Move) and goal.distance(move.to) < goal.distance(start)


def test_rolls_use_the_sides_of_the_requested_dice() -> None:
    game = make_game(OPEN, start=False)
    action = AutoPlayer(3).choose(game)
    assert isinstance(action, Roll) and len(action.values) == 2 and all(1 <= v <= 6 for v in action.values)


def test_play_out_stops_after_the_bound_with_a_clear_message() -> None:
    game = Game(load_scenario("tutorial"))
    with pytest.raises(AutoPlayError, match=r"stopped after 20 actions: nobody could win \(round \d+, next: "):
        play_out(game, AutoPlayer(1), max_steps=20)
    assert len(game.history) == 20


def test_hexa_play_auto_stops_an_endless_game_with_a_clear_message(tmp_path: Path) -> None:
    out = StringIO()
    argv = ["--journal", str(tmp_path / "g.sqlite"), "--auto", "--seed", "1", "--max-actions", "30", "tutorial"]
    assert play_cli.main(argv, stdin=StringIO(""), stdout=out) == 3
    text = out.getvalue()
    assert "Stopped after 30 actions: nobody could win (round " in text
    assert text.count("> (auto) ") == 30
