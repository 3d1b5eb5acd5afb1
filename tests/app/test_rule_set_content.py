"""The app shows what the rule set gives it: a toy rule set on a zone board (not Fantasy Battle) brings its own
glossary, its own query kind drawn generically, no points and no roll for the turn order."""

from __future__ import annotations

from typing import Any

import pytest

from companion_app.viewmodels.session import GameSession
from companion_app.viewmodels.setup_model import scenario_choices, setup_view
from engine.game import Game
from engine.scenario import load_scenario_text
from engine.snapshot import game_snapshot, query_to_dict, scenario_to_dict
from tests.engine.zone_rules import KEYPAD


@pytest.fixture()
def game() -> Game:
    return Game(load_scenario_text(KEYPAD))


@pytest.fixture()
def session(game: Game) -> GameSession:
    s = GameSession()
    assert s.set_scenario(scenario_to_dict(game.scenario, game.points()))
    assert s.set_snapshot(game_snapshot(game))
    return s


def test_the_glossary_is_the_rule_sets_own(session: GameSession) -> None:
    g = session.glossary
    assert g.terms_in("Ash makes a zone step towards the goal") == ["zone step", "goal"]
    assert g.lookup("decisive battle") is None and g.lookup("line of sight") is None  # no Fantasy Battle text
    assert session.board is not None
    five = next(k for k, t in session.board.tiles.items() if t.label == "5")
    assert g.term_at(session.board, five) == "zone step"


def test_its_own_query_kind_is_asked_and_drawn_without_knowing_it(game: Game, session: GameSession) -> None:
    assert [(q.what, q.label, q.about) for q in session.queries] == [("steps", "Steps", "figure")]
    asks = session.asks_for("ash")
    assert [(q.what, subject) for q, subject in asks] == [("steps", "ash")]
    session.select("ash")
    session.answer("ash", query_to_dict(game, "steps", "ash")["overlay"])
    sel = session.selection
    assert sel is not None
    board = session.board
    assert board is not None
    assert sorted(board.label(c.key) for c in sel.cells("outline")) == ["2", "4"]
    assert sel.cells("shade") == [] and sel.cells("warn") == []
    (line,) = sel.sight_lines
    assert board.label(line.start) == "1" and board.label(line.end) == "8" and line.verdict == "clear"  # type: ignore[arg-type]
    assert sel.lines() == ["2 zones to step to", "goal: zone 8"]
    assert session.tap_hint == "Tap a figure to see its steps."


def test_texts_speak_of_zones_and_the_header_agrees_with_the_prompt(session: GameSession) -> None:
    p = session.prompt
    assert p is not None and p.kind == "move" and p.text == "Move ash"
    assert p.move_hint == "Tap a shaded zone or drag the Ash there (2 zones)."
    assert session.cell_word == "zone"
    # No rounds and no roll for the turn order in this rule set: the header names the side the prompt addresses.
    assert session.header.text == "allies' turn"
    assert "roll" not in session.header.text


def test_no_points_line_when_the_rule_set_counts_none(session: GameSession) -> None:
    view = setup_view(session.scenario)
    assert [line.points for line in view.sides] == [None, None] and view.warning == ""
    assert all("points" not in line.text for line in view.sides)
    assert view.sides[0].text == "allies (red) — 1 figure — played by allies"


def test_the_setup_lists_the_engines_scenarios_from_its_reply() -> None:
    reply: dict[str, Any] = {"ok": True, "scenarios": [
        {"name": "keypad", "title": "Keypad steps", "ruleset": "zone-steps", "ruleset_title": "Zone steps",
         "description": "Step to\nzone 8."},
        {"name": "broken", "error": "broken.toml (scenario folder), line 3: no [map]"},
    ]}
    keypad, broken = scenario_choices(reply)
    assert keypad.name == "keypad" and keypad.button_text == "Keypad steps (Zone steps)"
    assert keypad.detail == "Step to zone 8."
    assert broken.button_text == "broken: cannot be started" and "line 3" in broken.detail
    assert scenario_choices({"ok": False, "error": "unknown command"}) == []
