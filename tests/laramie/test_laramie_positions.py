"""Random positions on the station map: every shot is judged, its modifiers add up, the rules' invariants hold."""

from __future__ import annotations

import random

from engine.game import Game
from engine.rules.laramie import terrain
from engine.rules.laramie.field_of_fire import in_field_of_fire
from engine.rules.laramie.rules import Laramie
from engine.scenario import load_scenario

STATES = ("normal", "prone", "dash", "crawl", "jump_prone", "suppressed_1", "suppressed_2")


def test_shots_from_random_positions_keep_the_rules_invariants() -> None:
    game = Game(load_scenario("laramie-station"))
    rules = game.rules
    assert isinstance(rules, Laramie)
    board = rules.board
    cells = [h for h in board if terrain.standable_here(board, h)]
    rng = random.Random(14)
    checked = doubted = 0
    for _ in range(400):
        a, b = game.state.figures["gary"], game.state.figures["jesse"]
        a.hex, b.hex = rng.choice(cells), rng.choice(cells)
        a.facing, b.facing = rng.randrange(6), rng.randrange(6)
        a.values["state"], b.values["state"] = rng.choice(STATES), rng.choice(STATES)
        shot = rules.normal(game.state, "gary", "jesse")
        assert 0.0 <= shot.chance <= 0.9
        if shot.in_doubt:  # the line nudged either way reads differently: one reading at least allows the shot
            doubted += 1
            assert shot.allowed and shot.line.split and any(s.allowed for s in shot.readings)
        for s in shot.readings or (shot,):
            assert s.die_modifier == sum(m.value for m in s.die_modifiers)
            if not s.allowed:
                continue
            checked += 1
            assert in_field_of_fire(a.hex, a.facing, b.hex) and not s.line.blocked and s.range <= 15
            assert a.values["state"] not in ("dash", "crawl")
            assert s.chance >= 0.1  # a natural 1 always hits
            mods = {m.name for m in s.die_modifiers}
            if board.terrain(b.hex) == terrain.HOUSE:  # a house beyond the lumber yard: only the lumber yard's +2
                assert not ({"lumber yard on the line", "target in cover"} <= mods)
            if b.values["state"] in ("prone", "crawl", "jump_prone") and s.range >= 2:
                assert terrain.open_ground(board, b.hex) and not s.line.obstacle and not s.line.lumber_yard
        suppress = rules.suppressive(game.state, "gary", "jesse", use_damage=False)
        if shot.allowed:
            assert suppress.allowed  # suppressive fire reaches whatever normal fire does
    assert checked > 20 and doubted > 0
