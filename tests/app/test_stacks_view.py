"""The board view model with stacks and facing (the Skirmish test rule set): offset discs with a count, the facing
wedge's angle, a tap cycling through a stack, a drag moving the figure the prompt asks for out of a stack."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion_app.viewmodels.board_model import STACK_STEP, build_board
from companion_app.viewmodels.session import GameSession
from engine import rules
from engine.actions import Choose, Face, Move, action_from_dict
from engine.game import Game
from engine.hexes import from_label
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot, scenario_to_dict
from tests.rulesets import SKIRMISH_FOLDER, SKIRMISH_PICKS, SKIRMISH_SCENARIO

B2 = from_label("B2")
KEY = (B2.q, B2.r)


@pytest.fixture()
def game(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    monkeypatch.setenv(rules.FOLDERS_VARIABLE, str(SKIRMISH_FOLDER))
    rules.reload_plugins()
    yield Game(load_scenario(str(SKIRMISH_SCENARIO)))
    monkeypatch.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()


@pytest.fixture()
def picking(game: Game) -> Game:
    """The same scenario with the option ``pick``: each move begins with a choose prompt naming the figures."""
    return Game(load_scenario(str(SKIRMISH_PICKS)))


def session_for(game: Game) -> GameSession:
    s = GameSession()
    s.set_scenario(scenario_to_dict(game.scenario))
    s.set_snapshot(game_snapshot(game))
    return s


def test_a_stack_is_drawn_as_offset_discs_with_the_last_arrival_on_top(game: Game) -> None:
    game.apply(Move("squire", B2))
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    knight, squire = board.figures["knight"], board.figures["squire"]
    assert (knight.stack, knight.stack_index, squire.stack, squire.stack_index) == (2, 0, 2, 1)
    assert [f.id for f in board.figures_at(KEY)] == ["squire", "knight"] and board.figure_at(KEY) is squire
    assert knight.centre is not None and squire.centre is not None
    cx, cy = board.centre(KEY)
    step = STACK_STEP * board.size_mm
    assert squire.centre == pytest.approx((cx + step / 2, cy - step / 2))
    assert knight.centre == pytest.approx((cx - step / 2, cy + step / 2))
    assert board.hex_at(*squire.centre) == KEY and board.hex_at(*knight.centre) == KEY  # both tap their hex
    assert board.figures["bandit"].stack == 1


def test_the_facing_wedge_points_at_the_neighbour_faced_only_where_the_rules_use_facing(game: Game) -> None:
    game.apply(Face("knight", 4))
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    assert board.figures["knight"].facing_deg == pytest.approx(150.0)  # direction 4 on a flat map: down-left
    assert board.figures["squire"].facing_deg == pytest.approx(30.0)  # direction 0, the start
    fantasy = Game(load_scenario("tutorial"))
    plain = build_board(scenario_to_dict(fantasy.scenario), game_snapshot(fantasy))
    assert all(f.facing_deg is None for f in plain.figures.values())


def test_a_tap_on_a_stack_picks_its_figures_in_turn(game: Game) -> None:
    game.apply(Move("squire", B2))
    game.apply(Move("knight", B2))  # stays: now the bandit's move, and B2 is not among its hexes
    session = session_for(game)
    first = session.tap(KEY)
    assert first.kind == "select" and first.figure == "squire" and "2 of a stack of 2" in first.text
    session.select("squire")
    second = session.tap(KEY)
    assert second.figure == "knight" and "1 of a stack of 2, tap again for the next" in second.text
    session.select("knight")
    assert session.tap(KEY).figure == "squire"


def test_a_drag_out_of_a_stack_moves_the_figure_whose_move_it_is(game: Game) -> None:
    game.apply(Move("squire", B2))  # the knight's move next; the squire on top of it
    session = session_for(game)
    a2 = from_label("A2")
    result = session.drag(KEY, (a2.q, a2.r))
    assert result.kind == "action" and result.action == {"kind": "move", "figure": "knight", "to": [a2.q, a2.r]}
    assert result.action is not None
    game.apply(action_from_dict(result.action))
    session.set_snapshot(game_snapshot(game))
    assert session.board is not None and session.board.figures["squire"].stack == 1


def test_a_figure_dragged_onto_a_neighbour_when_it_cannot_move_is_turned_to_face_it(game: Game) -> None:
    session = session_for(game)  # the squire's move: the knight cannot move now
    a2 = from_label("A2")
    result = session.drag(KEY, (a2.q, a2.r))
    assert result.kind == "action" and result.action == {"kind": "face", "figure": "knight", "direction": 3}
    assert result.text == "turn Knight to face A2"
    far = from_label("E4")
    assert session.drag(KEY, (far.q, far.r)).kind == "refused"
    plain = session_for(Game(load_scenario("tutorial"))).board  # Fantasy Battle: no facing, no turning
    assert plain is not None and plain.face_action("swordsman", (1, 1)) is None


def to_a_stack_of_choices(game: Game) -> None:
    """The squire joins the knight on B2, the knight and the bandit stay: red picks again, both on B2."""
    for figure, to in (("squire", B2), ("knight", B2), ("bandit", from_label("E3"))):
        game.apply(Choose(figure))
        game.apply(Move(figure, to))
    assert {o.figure for o in game.prompt.options} == {"squire", "knight"}


def test_a_tap_on_a_stack_of_choices_offers_each_figure_and_the_pick_chooses_it(picking: Game) -> None:
    to_a_stack_of_choices(picking)
    session = session_for(picking)
    result = session.tap(KEY)
    assert result.kind == "pick" and result.text == "2 choices on B2: pick one"
    shown = [(o.figure, o.label) for o in result.options]
    assert shown == [("squire", "move Squire (B2)"), ("knight", "move Knight (B2)")]  # top of the stack first
    assert session.prompt is not None
    picking.apply(action_from_dict(session.prompt.choose(result.options[1].id)))  # the lower one of the stack
    assert picking.prompt.figure == "knight"
    session.set_snapshot(game_snapshot(picking))
    assert session.prompt is not None and session.prompt.kind == "move" and session.prompt.figure == "knight"


def test_a_lone_choice_on_a_hex_is_still_shown_first_and_chosen_by_a_second_tap(picking: Game) -> None:
    session = session_for(picking)  # red picks: the squire on C2, the knight on B2, each alone
    c2 = from_label("C2")
    first = session.tap((c2.q, c2.r))
    assert first.kind == "select" and first.figure == "squire"
    assert first.text == "Tap Squire again to choose: move Squire (C2)"
    session.select("squire")
    assert session.tap((c2.q, c2.r)).action == {"kind": "choose", "option": "squire"}


def test_a_choice_naming_a_figure_without_a_hex_is_tapped_on_the_figures_hex(picking: Game) -> None:
    to_a_stack_of_choices(picking)
    snapshot = game_snapshot(picking)
    for option in snapshot["prompt"]["options"]:
        option["hex"] = None
    session = GameSession()
    session.set_scenario(scenario_to_dict(picking.scenario))
    session.set_snapshot(snapshot)
    result = session.tap(KEY)
    assert result.kind == "pick" and [o.figure for o in result.options] == ["squire", "knight"]


def test_a_tap_on_a_stack_lists_its_figures_top_first(game: Game) -> None:
    game.apply(Move("squire", B2))
    game.apply(Move("knight", B2))
    session = session_for(game)
    board = session.board
    assert board is not None
    names = [f.name for f in board.figures_at(KEY)]
    text = session.tap(KEY).text
    assert text.endswith("tap again for the next: " + ", ".join(
        f"{n} ({board.figures[f].badges[0]})" if board.figures[f].badges else n
        for n, f in zip(names, ["squire", "knight"], strict=True)))
