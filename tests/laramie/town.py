"""Small Laramie towns for the rule tests: an open street of 19 × 9 hexes, with houses, the lumber yard,
walls and black lines placed by label, and units with their values and states set directly."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Choose, Move, Roll
from engine.game import Game
from engine.hexes import Hex
from engine.scenario import Scenario, load_scenario_text
from engine.state import FigureState

COLS = "ABCDEFGHIJKLMNOPQRS"
ROWS = 9

UNIT = {"hit": 6, "shots": 1, "damage": 2, "melee": 3, "combat": 5, "hp": 4}


def drawing(cells: dict[str, str]) -> str:
    lines = []
    for r in range(1, ROWS + 1):
        lines.append("   ".join(cells.get(f"{COLS[i]}{r}", ".") for i in range(0, len(COLS), 2)))
        lines.append("  " + "   ".join(cells.get(f"{COLS[i]}{r}", ".") for i in range(1, len(COLS), 2)))
    return "\n".join(lines)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def town(units: dict[str, dict[str, Any]], cells: dict[str, str] | None = None, fences: tuple[str, ...] = (),
         lines: tuple[str, ...] = (), morale: bool = False, victory: str = "") -> Scenario:
    """A scenario: ``units`` by id, each with ``side`` ("a" or "b"), ``at`` and any unit values."""
    parts = [
        '[scenario]\nid = "test-town"\nname = "Test town"\nruleset = "laramie"\n',
        f'[map]\norientation = "flat"\ndrawing = """\n{drawing(cells or {})}\n"""\n',
        f"[map.edges]\nfence = {_value(list(fences))}\nblack_line = {_value(list(lines))}\n",
        '[[sides]]\nid = "a"\nname = "Sheriffs"\ncolour = "blue"\n',
        '[[sides]]\nid = "b"\nname = "Outlaws"\ncolour = "red"\n',
    ]
    for i, (fid, spec) in enumerate(units.items()):
        values = {**UNIT, **spec}
        body = "\n".join(f"{k} = {_value(v)}" for k, v in values.items())
        parts.append(f'[[figures]]\nname = "{fid.capitalize()}"\nid = "{fid}"\nmarker = {i}\n{body}\n')
    parts.append(victory)
    if morale:
        parts.append("[options]\nmorale_broken = true\n")
    return load_scenario_text("\n".join(parts), "test-town.toml")


def hexes(game: Game, label: str) -> Hex:
    return game.scenario.board.from_label(label)


def fig(game: Game, fid: str) -> FigureState:
    return game.state.figures[fid]


def set_unit(game: Game, fid: str, *, state: str | None = None, at: str | None = None, facing: int | None = None,
             hp: int | None = None) -> None:
    """Put a unit in a position outside the rules (the prompt is asked again)."""
    f = fig(game, fid)
    if state is not None:
        f.values["state"] = state
    if at is not None:
        game.state.put(fid, hexes(game, at))
    if facing is not None:
        f.facing = facing
    if hp is not None:
        f.values["hp"] = hp
    game.replace_state(game.state)


def roll(*values: int) -> Roll:
    return Roll(tuple(values))


def choose(option: str) -> Choose:
    return Choose(option)


def move(game: Game, fid: str, label: str) -> Move:
    return Move(fid, hexes(game, label))


def texts(events: list[Any]) -> list[str]:
    return [e.text for e in events]


def play(game: Game, *actions: Action) -> list[str]:
    out: list[str] = []
    for a in actions:
        out += texts(game.apply(a))
    return out


def to_combat(game: Game) -> None:
    """Answer the state update with 'normal' (or let it settle) and stay put until the combat phase."""
    for _ in range(200):
        if game.state.phase == "combat":
            return
        p = game.prompt
        if p.kind.value == "choose":
            game.apply(Choose(p.options[0].id))
        elif p.kind.value == "move":
            assert p.figure is not None
            game.apply(Move(p.figure, fig(game, p.figure).hex or Hex(0, 0)))
        elif p.kind.value == "roll":
            game.apply(Roll(tuple(5 for _ in p.dice)))
        else:
            game.apply(Choose(p.options[0].id))
    raise AssertionError("never reached the combat phase")
