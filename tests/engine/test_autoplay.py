"""The auto player knows no rule set: it answers from the prompt and the goals the rule set offers, within a bound."""

from io import StringIO
from pathlib import Path

import pytest
from fb_tables import Choose, Roll, h, make_game

import engine.autoplay as autoplay
import engine.option_kinds as option_kinds
from engine.actions import Move
from engine.autoplay import AutoPlayer, AutoPlayError, play_out
from engine.cli import play as play_cli
from engine.game import Game
from engine.hexes import Hex
from engine.option_kinds import OptionKinds
from engine.prompts import Option, PromptKind
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
    for module in (autoplay, option_kinds):
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        for word in ("fantasy_battle", "laramie", "tenkey", "FigureKind", "state.step", "v.type", "save_at",
                     '"select"', '"retreat"', '"suppress"', '"push"'):
            assert word not in source


def test_an_options_kind_is_its_leading_word_with_figures_cells_and_numbers_read_as_such() -> None:
    kinds = OptionKinds(figures=("orc-1", "troll", "orc"), labels=frozenset({"A4", "3"}))
    at = Hex(0, 0)
    read = {
        Option("push-troll", ""): "push",
        Option("hardpush-orc-1", ""): "hardpush",
        Option("suppress:troll:damage", ""): "suppress",
        Option("open:F7|G7", "", at): "open",
        Option("pickup-hand axe#1", ""): "pickup",
        Option("jump_prone", ""): "jump_prone",
        Option("orc-1", "", at, "orc-1"): "figure",  # the whole id, not the figure orc
        Option("orc-1>troll", ""): "figure>figure",
        Option("troll:orc", ""): "figure:figure",
        Option("troll@3", "", at, "troll"): "figure@place",
        Option("20", ""): "number",
        Option("3", ""): "number",  # a cell's label, but the option names no cell: a number
        Option("3", "", at): "place",
        Option("A4", "", at): "place",
    }
    assert {o.id: kinds.kind(o) for o in read} == {o.id: kind for o, kind in read.items()}


def test_the_exploring_player_tries_each_kind_offered_and_its_seed_decides_the_game() -> None:
    """Tenkey's prompts are all choices (the table rolls its own dice): the draw among the kinds is the game's only
    chance, and with exploring off every seed plays the plain aims' one game."""
    def game_of(player: AutoPlayer) -> list[str]:
        game = Game(load_scenario("tenkey-skirmish"))
        return [repr(step.action) for step in play_out(game, player)]

    assert game_of(AutoPlayer(1, explore=0.0)) == game_of(AutoPlayer(2, explore=0.0))
    assert game_of(AutoPlayer(1)) != game_of(AutoPlayer(2))
    player = AutoPlayer(1)
    game_of(player)
    assert {"normal", "full", "stay", "hit", "miss", "end"} <= set(player.chosen)


def test_moves_head_for_the_goals_the_rule_set_offers() -> None:
    game = make_game(OPEN)
    game.apply(Choose("K"))
    game.apply(Roll((6,)))
    assert game.prompt.kind is PromptKind.MOVE
    start = game.state.figures["K"].hex
    assert start is not None
    for goal in (h("A1"), h("E3")):
        game.rules.goals = lambda state, figure, goal=goal: [goal]
        move = AutoPlayer(0).choose(game)
        assert isinstance(move, Move) and goal.distance(move.to) < goal.distance(start)


def test_a_crowded_cell_is_passed_over_while_another_move_is_offered() -> None:
    game = make_game(OPEN)
    game.apply(Choose("K"))
    game.apply(Roll((6,)))
    game.rules.goals = lambda state, figure: [h("E3")]
    best = AutoPlayer(0, explore=0.0).choose(game)
    assert isinstance(best, Move)
    asked: list[tuple[str, Hex]] = []

    def crowded(g: Game, figure: str, cell: Hex) -> bool:
        asked.append((figure, cell))
        return cell == best.to

    move = AutoPlayer(0, explore=0.0, crowded=crowded).choose(game)
    assert isinstance(move, Move) and move.to != best.to and ("K", best.to) in asked
    start = game.state.figures["K"].hex
    everywhere = AutoPlayer(0, explore=0.0, crowded=lambda g, f, c: True).choose(game)
    assert isinstance(everywhere, Move) and everywhere.to == start  # nowhere else roomy: it stays where it stands


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
