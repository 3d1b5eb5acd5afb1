"""An illegal move on the table, from the engine's own table sync to what the prompt area shows and the override."""

from __future__ import annotations

from typing import Any

from companion_app.viewmodels.session import GameSession
from engine.game import Game
from engine.hexes import Hex
from engine.snapshot import game_snapshot, scenario_to_dict
from engine.table_sync import SyncReport, TableSync
from engine.wire import TableMessage
from tests.engine.test_table_sync import START, goblin_move_game, hx, table_at


def table_body(report: SyncReport, game: Game) -> dict[str, Any]:
    """The ``table`` message as the engine sends it for this report, decoded as the app's agent hands it over."""
    message = TableMessage(1, 1.0, "run", 1, desync=tuple(d.to_dict() for d in report.desync),
                           illegal=None if report.illegal is None else report.illegal.to_dict(game.scenario),
                           registration={"ok": True, "text": "4 anchors"})
    return TableMessage.from_json(message.to_frames()[1]).body()


def session_for(game: Game) -> GameSession:
    s = GameSession()
    s.set_scenario(scenario_to_dict(game.scenario, game.points()))
    s.set_snapshot(game_snapshot(game))
    return s


def test_an_illegal_hand_move_raises_the_alarm_until_the_table_is_put_right() -> None:
    game = goblin_move_game()
    sync = TableSync(game.scenario)
    sync.observe(table_at(game.scenario, START), game)
    sync.observe(table_at(game.scenario, {**START, "goblin-1": "C2"}), game)
    report = sync.step(game)
    s = session_for(game)
    s.set_table(table_body(report, game))
    alarm = s.table_view.alarm
    assert alarm is not None and s.board is not None
    assert alarm.headline == "Goblin may not stop on C2"
    assert report.illegal is not None and alarm.reason == report.illegal.reason
    assert alarm.fix.startswith("Put it back on G2, or on one of the legal hexes (outlined): ") and "F2" in alarm.fix
    to = hx("C2")
    assert alarm.override == {"figure": "goblin-1", "to": [to.q, to.r]}
    assert "accept Goblin on C2" in alarm.override_label
    # The board marks it: where it stands, where the game has it, the legal cells.
    assert s.table_view.illegal is not None and s.table_view.illegal.end == (to.q, to.r)
    g2 = hx("G2")
    assert s.table_view.illegal.start == (g2.q, g2.r) and (hx("F2").q, hx("F2").r) in s.table_view.illegal_legal
    # Said once, in the prompt area: neither the illegal move nor its "put it back" desync in the small info strip.
    assert not any("C2" in line for line in s.table_view.lines(s.board))
    sync.observe(table_at(game.scenario, START), game)  # put back: the alarm goes
    s.set_table(table_body(sync.step(game), game))
    assert s.table_view.alarm is None


def test_the_override_accepts_the_figure_where_it_stands() -> None:
    """The alarm's override fields are the engine's ``override`` command: the figure stands where the table has it."""
    from engine.service import overrides as override_log

    game = goblin_move_game()
    sync = TableSync(game.scenario)
    sync.observe(table_at(game.scenario, START), game)
    sync.observe(table_at(game.scenario, {**START, "goblin-1": "C2"}), game)
    s = session_for(game)
    s.set_table(table_body(sync.step(game), game))
    assert s.table_view.alarm is not None and s.table_view.alarm.override is not None
    fields = s.table_view.alarm.override
    override_log.place_figure(game, fields["figure"], Hex(*fields["to"]))
    sync.forget_intents(fields["figure"])
    s.set_snapshot(game_snapshot(game))
    s.set_table(table_body(sync.step(game), game))
    assert game.state.figures["goblin-1"].hex == hx("C2") and s.table_view.alarm is None
