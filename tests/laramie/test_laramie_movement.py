"""The movement phase: lowest combat value first with 1d10 roll-offs between sides; moves by state; the jump
prone roll; suppressed units run for cover from the open; black lines stop feet, walls do not."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.prompts import PromptKind
from tests.laramie.town import choose, fig, move, play, roll, set_unit, town


def street(cells: dict[str, str] | None = None, **kw: Any) -> Game:
    return Game(town({"jack": {"side": "a", "at": "J5", "combat": 3},
                      "jesse": {"side": "b", "at": "P8", "combat": 6},
                      "gary": {"side": "a", "at": "B2", "combat": 8}}, cells=cells, **kw))


def to_jacks_move(g: Game, state: str) -> None:
    play(g, choose(state), choose("normal"), choose("normal"))
    assert g.state.phase == "move" and g.prompt.figure == "jack"


def labels(g: Game) -> set[str]:
    return {g.scenario.board.label(h) for h in g.prompt.moves}


def test_a_normal_unit_moves_one_hex_and_a_dashing_one_two() -> None:
    g = street()
    to_jacks_move(g, "normal")
    assert labels(g) == {"J5", "J4", "J6", "I5", "I6", "K5", "K6"}
    g = street()
    to_jacks_move(g, "dash")
    assert len(g.prompt.moves) == 19 and max(r.cost for r in g.prompt.moves.values()) == 2


def test_a_crawling_unit_moves_one_hex_a_prone_one_not_at_all() -> None:
    g = street()
    to_jacks_move(g, "normal")
    set_unit(g, "jack", state="crawl")
    assert len(g.prompt.moves) == 7
    g = street()
    play(g, choose("prone"), choose("normal"), choose("normal"))
    assert g.prompt.figure == "jesse"  # prone Jack was passed over


def test_a_black_line_stops_a_move_and_a_wall_does_not() -> None:
    g = Game(town({"jack": {"side": "a", "at": "J5", "combat": 3}, "jesse": {"side": "b", "at": "P8"}},
                  lines=("J5|J4",), fences=("J5|J6",)))
    play(g, choose("normal"), choose("normal"))
    assert "J4" not in labels(g) and "J6" in labels(g)
    refused = g.rules.why_not(g.state, "jack", g.scenario.board.from_label("J4"))
    assert "black line" in refused


def test_jump_prone_lands_prone_on_the_combat_value_or_less_else_suppressed_1() -> None:
    g = street()
    to_jacks_move(g, "jump_prone")
    play(g, move(g, "jack", "J4"))
    assert g.prompt.kind is PromptKind.ROLL and "3 or less" in g.prompt.text
    assert play(g, roll(3)) == ["Jack rolls 3: lies prone at J4."]
    assert fig(g, "jack").values["state"] == "jump_prone"
    g = street()
    to_jacks_move(g, "jump_prone")
    play(g, move(g, "jack", "J4"), roll(4))
    assert fig(g, "jack").values["state"] == "suppressed_1"
    assert g.scenario.board.label(fig(g, "jack").hex) == "J4"  # type: ignore[arg-type]


def test_a_suppressed_unit_in_the_open_runs_a_hex_towards_the_nearest_cover() -> None:
    g = street(cells={"J8": "H", "B5": "H"})
    to_jacks_move(g, "normal")
    set_unit(g, "jack", state="suppressed_1")
    house, here = g.scenario.board.from_label("J8"), fig(g, "jack").hex
    assert here is not None and here.distance(house) == 3
    nearer = {g.scenario.board.label(n) for n in here.neighbours() if n.distance(house) == 2}
    assert labels(g) == nearer and "J6" in nearer  # a step along a shortest way to J8; staying is no answer
    assert "runs" in g.prompt.text or "nearest cover" in g.prompt.text


def test_a_suppressed_unit_at_a_wall_or_in_cover_does_not_move() -> None:
    g = street(fences=("J5|J6",))
    to_jacks_move(g, "normal")
    set_unit(g, "jack", state="suppressed_2")
    assert set(g.prompt.moves) == {fig(g, "jack").hex}


def test_units_of_opposing_sides_with_the_same_value_roll_1d10_lower_first() -> None:
    g = Game(town({"jack": {"side": "a", "at": "J5", "combat": 5}, "jesse": {"side": "b", "at": "P8", "combat": 5},
                   "joe": {"side": "b", "at": "P7", "combat": 5}}))
    play(g, choose("normal"), choose("normal"), choose("normal"))
    p = g.prompt
    assert p.kind is PromptKind.ROLL and [d.sides for d in p.dice] == [10, 10, 10]
    assert "lowest goes first" in p.text
    play(g, roll(7, 2, 2))  # jack 7; jesse and joe tie again
    play(g, roll(6, 1))  # jesse 6, joe 1
    assert g.prompt.figure == "joe"
    assert g.state.step.order == ("joe", "jesse", "jack")  # type: ignore[attr-defined]


def test_units_of_one_side_with_the_same_value_need_no_roll() -> None:
    g = Game(town({"jack": {"side": "a", "at": "J5", "combat": 5}, "gary": {"side": "a", "at": "J6", "combat": 5},
                   "jesse": {"side": "b", "at": "P8", "combat": 6}}))
    play(g, choose("normal"), choose("normal"), choose("normal"))
    assert g.prompt.kind is PromptKind.MOVE and g.prompt.figure == "jack"
