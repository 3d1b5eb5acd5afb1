"""The demo's hand sets the figures of a stack side by side in their hex, so that the camera sees every tag."""

from __future__ import annotations

from companion_app.demo.table_moves import crowds, place_on
from engine.game import Game
from engine.scenario import load_scenario


def test_a_stack_is_set_side_by_side_inside_its_hex() -> None:
    scenario = load_scenario("laramie-station")
    hex_ = scenario.board.from_label("F5")
    table: dict[int, dict[str, object]] = {}  # the control socket's markers, as the hand sets each figure down
    points = []
    for figure in ("gary", "jack", "jesse"):
        move = place_on(scenario, figure, hex_, table)
        table[move.marker] = {"x_mm": move.x_mm, "y_mm": move.y_mm, "state": "on_table"}
        points.append((move.x_mm, move.y_mm))
    assert len(set(points)) == 3  # three places, none on another
    for x, y in points:
        assert scenario.layout.mm_to_hex(x, y) == hex_  # each still inside the hex
    (cx, _), (x1, _) = points[0], points[1]
    assert abs(x1 - cx) >= 20.0  # about a tag's width apart


def test_the_demos_hand_builds_no_stack_whose_tags_would_overlap() -> None:
    game = Game(load_scenario("laramie-station"))
    hex_ = game.scenario.board.from_label("F5")
    for figure in ("gary", "jack", "jesse", "joe"):
        assert not crowds(game, figure, hex_)  # up to four stand side by side, a tag's width apart
        game.state.put(figure, hex_)
        assert not crowds(game, figure, hex_)  # one already there counts once
    assert crowds(game, "john", hex_)  # a fifth: its tag would lie on the one at the centre
    assert not crowds(game, "john", game.scenario.board.from_label("F6"))
