"""Build small Fantasy Battle games from ASCII maps for rule tests.

Uppercase letters are figures of side "red", lowercase of side "blue"; the letter is the figure's
id and name. Red plays first (the turn-order roll is made for you unless ``start=False``).
"""

from __future__ import annotations

import textwrap

from engine.actions import Choose, Move, Remove, Roll
from engine.board.hex.ascii_map import parse_map
from engine.game import Game
from engine.hexes import Hex, from_label, to_label
from engine.prompts import PromptKind
from engine.scenario import load_scenario_text

__all__ = ["Choose", "Move", "Remove", "Roll", "h", "labels", "make_game"]


def h(label: str) -> Hex:
    return from_label(label)


def labels(hexes: object) -> set[str]:
    return {to_label(x) for x in hexes}  # type: ignore[attr-defined]


def make_game(
    drawing: str,
    *,
    kinds: dict[str, str] | None = None,
    walls: list[str] | None = None,
    doors: list[str] | None = None,
    locked: list[str] | None = None,
    victory: str = "",
    options: str = "",
    start: bool = True,
) -> Game:
    kinds = kinds or {}
    drawn = parse_map(drawing)
    plain = drawing
    figures = []
    marker = 0
    for mark, hexes in sorted(drawn.marks.items()):
        if not mark.isalpha():
            continue
        for hx in hexes:
            side = "red" if mark.isupper() else "blue"
            figures.append(
                f'[[figures]]\nid = "{mark}"\nname = "{mark}"\nmarker = {marker}\nside = "{side}"\n'
                f'kind = "{kinds.get(mark, "fighter")}"\nat = "{to_label(hx)}"\n'
            )
            marker += 1
        plain = plain.replace(mark, ".")
    text = textwrap.dedent(f"""
        [scenario]
        name = "test"
        ruleset = "fantasy-battle"
        [options]
        {options}
        [map]
        drawing = '''
        {{drawing}}
        '''
        walls = {walls or []!r}
        doors = {doors or []!r}
        locked_doors = {locked or []!r}
        [[sides]]
        id = "red"
        [[sides]]
        id = "blue"
        """).replace("{drawing}", textwrap.dedent(plain.strip("\n")))
    text += "\n".join(figures) + "\n" + victory
    game = Game(load_scenario_text(text, "test map"))
    if start:
        game.apply(Roll((6, 1)))
    return game


def kinds_of(game: Game) -> PromptKind:
    return game.prompt.kind
