"""The engine's provisional verdict (a figure still in the hand over a cell) as the tablet shows it: a faint ghost
on that cell and one line saying what putting it down would do."""

from __future__ import annotations

from companion_app.viewmodels.board_model import build_board
from companion_app.viewmodels.overlays import table_overlay
from engine.game import Game
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot, scenario_to_dict
from engine.wire import TableMessage


def table_body(provisional: dict[str, object] | None) -> dict[str, object]:
    """A ``table`` body as the app receives it: encoded by the engine's wire schema, decoded again."""
    message = TableMessage(1, 1.0, "run", 1, registration={"ok": True, "text": ""}, provisional=provisional)
    return TableMessage.from_json(message.to_frames()[1]).body()


def test_a_provisional_verdict_is_a_ghost_on_its_cell_with_a_line_saying_what_it_would_do() -> None:
    game = Game(load_scenario("goblins-treasure"))
    board = build_board(scenario_to_dict(game.scenario), game_snapshot(game))
    legal = table_overlay(table_body({"figure": "knight", "to": [0, 3], "to_label": "A4", "legal": True,
                                      "reason": ""}), board)
    assert legal.provisional is not None and legal.provisional.cell == (0, 3) and legal.provisional.legal
    assert "Knight over A4: put it down to play the move" in legal.lines(board)
    refused = table_overlay(table_body({"figure": "knight", "to": [9, 0], "to_label": "J1", "legal": False,
                                        "reason": "too far"}), board)
    assert refused.provisional is not None and not refused.provisional.legal
    assert any("would be refused (too far)" in line for line in refused.lines(board))
    assert table_overlay(table_body(None), board).provisional is None
