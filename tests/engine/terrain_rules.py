"""A tiny rule set with terrain kinds of its own, for testing how rule sets declare terrain.

It plays like :mod:`tests.engine.zone_rules` (a figure steps to a neighbouring cell) but on a hex map
with a lumber yard (``lumber``, drawn as rough ground, passable) and houses (``house``, drawn as a
building, no figure stands there, blocks sight). Its drawings know ``L`` for lumber; a scenario adds
a symbol for houses itself (``[map] symbols``). Its own edge kinds: a chalk ``line`` that stops feet but
not eyes, and a ``fence`` that stops neither (a rule set would give a target behind it cover), and a
``hatch``, a door of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engine.board import EdgeKindSpec, TerrainKind
from engine.rules import register
from engine.rules.base import MapSymbol
from tests.engine.zone_rules import ZoneSteps


class LumberYard(ZoneSteps):
    name: ClassVar[str] = "lumber-yard"
    title: ClassVar[str] = "Lumber yard (a test rule set)"
    board_kinds: ClassVar[tuple[str, ...]] = ("hex",)
    terrain_kinds: ClassVar[tuple[TerrainKind, ...]] = (
        TerrainKind("lumber", "stacked lumber: figures stand among it", standable=True, style="rough"),
        TerrainKind("house", "a house: nobody stands on its roof", standable=False, blocks_sight=True,
                    style="building"),
    )
    map_symbols: ClassVar[Mapping[str, MapSymbol]] = {"L": MapSymbol("lumber", None, "a lumber hex")}
    edge_kinds: ClassVar[tuple[EdgeKindSpec, ...]] = (
        EdgeKindSpec("line", "a chalk line: no crossing it, but it hides nothing", blocks_movement=True,
                     blocks_sight=False, style="line"),
        EdgeKindSpec("fence", "a low fence: crossed and seen over", blocks_movement=False, blocks_sight=False,
                     style="fence"),
        EdgeKindSpec("hatch", "a hatch that opens", style="door", door=True),
    )


register(LumberYard)

YARD = """
[scenario]
name = "Lumber yard"
ruleset = "lumber-yard"

[map]
drawing = '''
.   L   H   .
  .   L   .   .
.   .   ~   .
  .   .   .   .
'''
symbols = { H = "house" }
walls = ["H1|H2"]
edges = { line = ["A1|A2"], fence = ["G1|G2"], hatch = ["C1|C2"] }

[[sides]]
id = "allies"
[[sides]]
id = "enemies"

[[figures]]
name = "Ash"
marker = 1
side = "allies"
at = "C1"

[[figures]]
name = "Bo"
marker = 2
side = "enemies"
at = "B1"

[[victory]]
side = "allies"
type = "reach"
zone = "G2"
"""
