"""Small Lost Worlds tables for tests: a map drawn by its levels, characters placed by label, answers by id."""

from __future__ import annotations

from typing import Any

from engine.actions import Choose, Roll
from engine.events import Event
from engine.game import Game
from engine.prompts import PromptKind
from engine.scenario import Scenario, load_scenario_text

FLAT_3x3 = """
0   0   0
  0   0
0   0   0
  0   0
0   0   0
  0   0
"""

# FLAT_3x3 with a block three levels high in the middle (C2).
TOWER = """
0   0   0
  0   0
0   3   0
  0   0
0   0   0
  0   0
"""


def hero(at: str, **more: object) -> dict[str, object]:
    """The first player's character (height 4) on the space labelled ``at``."""
    return {"name": "Hero", "side": "a", "at": at, "height": 4, **more}


def foe(at: str, name: str = "Foe", **more: object) -> dict[str, object]:
    """A character of side ``b`` (height 4) on the space labelled ``at``."""
    return {"name": name, "side": "b", "at": at, "height": 4, **more}


def tower(levels: str = FLAT_3x3, figures: tuple[dict[str, Any], ...] = (), drawing: str | None = None,
          options: str = "", objects: str = "") -> Scenario:
    """A scenario of two sides, ``a`` (first player) and ``b``, on the map ``levels`` (floor unless ``drawing``);
    ``objects`` is the scenario's ``[[objects]]`` tables as TOML text."""
    if drawing is None:
        drawing = "".join("." if ch.isdigit() else ch for ch in levels)
    rows = []
    for i, f in enumerate(figures):
        extra = "\n".join(f"{k} = {toml_value(v)}" for k, v in f.items() if k not in ("name", "side", "at"))
        head = f'[[figures]]\nname = "{f["name"]}"\nmarker = {i}\nside = "{f["side"]}"\nat = "{f["at"]}"'
        rows.append(f"{head}\n{extra}\n")
    text = f'''[scenario]
name = "Test tower"
ruleset = "lost-worlds"

[options]
{options}

[map]
drawing = """{drawing}"""
levels = """{levels}"""

[[sides]]
id = "a"
name = "Heroes"

[[sides]]
id = "b"
name = "Monsters"

{"".join(rows)}
{objects}
'''
    return load_scenario_text(text, "test tower")


def toml_value(v: Any) -> str:
    """A value as TOML text (a string, a boolean, a number, a list of them)."""
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return str(v)


def game(scenario: Scenario, first: str = "a") -> Game:
    """A new game with the initiative rolled so that side ``first`` moves first."""
    g = Game(scenario)
    g.apply(Roll((6, 1) if first == "a" else (1, 6)))
    return g


def label_of(g: Game, option: str) -> str:
    """The label of an option the prompt offers."""
    return next(o.label for o in g.prompt.options if o.id == option)


def choose(g: Game, option: str) -> list[Event]:
    assert g.prompt.kind is PromptKind.CHOOSE, g.prompt.text
    return g.apply(Choose(option))


def roll(g: Game, *values: int) -> list[Event]:
    assert g.prompt.kind is PromptKind.ROLL, g.prompt.text
    return g.apply(Roll(tuple(values)))


def options(g: Game) -> list[str]:
    return [o.id for o in g.prompt.options]


def changed(g: Game) -> None:
    """After a test changed the state by hand: the prompt is asked again."""
    g.replace_state(g.state)
