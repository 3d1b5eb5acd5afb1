"""Small Tenkey scenarios for tests: characters in named zones, obstacles, options."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Choose, Move
from engine.game import Game
from engine.hexes import Hex
from engine.scenario import Scenario, load_scenario_text


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def scenario_text(figures: list[tuple[str, str, str, dict[str, Any]]], obstacles: str = "",
                  options: dict[str, Any] | None = None) -> str:
    """A keypad scenario: figures as (id, side 'party' or 'band', zone, their own fields)."""
    terrain = ", ".join(f'"{z}" = "obstacle"' for z in obstacles)
    out = ['[scenario]', 'name = "Test"', 'ruleset = "tenkey"', '', '[map]', 'kind = "zones"',
           'zones = """\n7 8 9\n4 5 6\n1 2 3\n"""', f'terrain = {{ {terrain} }}', '',
           '[[sides]]', 'id = "party"', '[[sides]]', 'id = "band"', '']
    opts = {"deployment": "free", **(options or {})}
    out += ["[options]", *(f"{k} = {_value(v)}" for k, v in opts.items()), ""]
    for marker, (fid, side, zone, fields) in enumerate(figures):
        out += ["[[figures]]", f'name = "{fid.capitalize()}"', f'id = "{fid}"', f"marker = {marker}",
                f'side = "{side}"', f'at = "{zone}"', *(f"{k} = {_value(v)}" for k, v in fields.items()), ""]
    return "\n".join(out)


def scenario(figures: list[tuple[str, str, str, dict[str, Any]]], obstacles: str = "",
             options: dict[str, Any] | None = None) -> Scenario:
    return load_scenario_text(scenario_text(figures, obstacles, options))


def game(figures: list[tuple[str, str, str, dict[str, Any]]], obstacles: str = "",
         options: dict[str, Any] | None = None, first: int = 0) -> Game:
    """A game past the initiative: player ``first`` (0 the party, 1 the band) acts first."""
    g = Game(scenario(figures, obstacles, options))
    g.apply(Choose(str(first)))
    return g


def zone(g: Game, label: str) -> Hex:
    return g.scenario.board.from_label(label)


def option_ids(g: Game) -> list[str]:
    return [o.id for o in g.prompt.options]


def act(g: Game, *answers: str | tuple[str, str]) -> None:
    """Answer prompts in turn: an option id, or (figure, zone label) for a move."""
    for a in answers:
        action: Action = Move(a[0], zone(g, a[1])) if isinstance(a, tuple) else Choose(a)
        g.apply(action)
