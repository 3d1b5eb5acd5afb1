"""Terrain kinds: what may cover a whole cell, declared by the core and by each rule set.

The core declares the four kinds every rule set shares (:data:`CORE_TERRAIN`: floor, blocking, low
obstacle, water; their names are the :class:`Terrain` constants). A rule set adds its own kinds
(``RuleSet.terrain_kinds``: a Laramie house, a Filtwiz underwater hex…) with the generic properties
the core and the tablets need: whether a figure may stand there, whether it blocks sight by default,
and how the tablets draw it, as one of the few :data:`DRAW_STYLES` they know. A cell's terrain is
the kind's name; the four shared kinds read back as their :class:`Terrain` member, so ``is`` checks
against them keep working.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from engine.i18n import N_


class Terrain(StrEnum):
    """The names of the terrain kinds every rule set shares (a member is its name, a ``str``)."""

    FLOOR = "floor"
    BLOCKING = "blocking"  # a solid wall hex or tall obstacle: no entry, blocks sight
    LOW_OBSTACLE = "low"  # crates, a low wall: no entry, shot over under the rules' conditions
    WATER = "water"


# How the tablets may draw a kind: each has a colour and a pattern there (companion_app.viewmodels.palette).
DRAW_STYLES: tuple[str, ...] = ("floor", "solid", "low", "water", "rough", "building")


@dataclass(frozen=True)
class TerrainKind:
    """One kind of terrain: its name in scenarios, a line for people, and what the core and tablets need."""

    name: str
    help: str
    standable: bool = True  # a figure may stand there (the rule set judges entering and moving itself)
    blocks_sight: bool = False  # the core's default line-of-sight judgement; rule sets may judge otherwise
    style: str = "floor"  # how the tablets draw it, one of DRAW_STYLES

    def __post_init__(self) -> None:
        if not self.name or not self.name.replace("_", "").isalnum() or self.name != self.name.lower():
            raise ValueError(f"terrain kind name {self.name!r} must be a lower-case word (letters, digits, _)")
        if self.style not in DRAW_STYLES:
            raise ValueError(f"terrain kind {self.name!r} has draw style {self.style!r}; use one of {DRAW_STYLES}")


CORE_TERRAIN: tuple[TerrainKind, ...] = (
    TerrainKind(Terrain.FLOOR, N_("open floor"), standable=True, blocks_sight=False, style="floor"),
    TerrainKind(Terrain.BLOCKING, N_("a solid wall hex or tall obstacle"), standable=False, blocks_sight=True,
                style="solid"),
    TerrainKind(Terrain.LOW_OBSTACLE, N_("a low obstacle (crates, a low wall)"), standable=False, blocks_sight=False,
                style="low"),
    TerrainKind(Terrain.WATER, N_("water"), standable=False, blocks_sight=False, style="water"),
)
CORE_KINDS: dict[str, TerrainKind] = {k.name: k for k in CORE_TERRAIN}


def terrain_name(name: str) -> str:
    """The name as a cell stores it: the :class:`Terrain` member for a shared kind, else the name itself."""
    try:
        return Terrain(name)
    except ValueError:
        return str(name)


def terrain_kinds(own: Iterable[TerrainKind] = ()) -> dict[str, TerrainKind]:
    """The shared kinds and a rule set's own, by name; refuses an own kind that repeats a name."""
    kinds = dict(CORE_KINDS)
    for kind in own:
        if kind.name in kinds:
            raise ValueError(f"terrain kind {kind.name!r} is declared twice (the shared kinds are "
                             f"{', '.join(CORE_KINDS)}); give it another name")
        kinds[kind.name] = kind
    return kinds


def style_of(name: str, kinds: Mapping[str, TerrainKind] = CORE_KINDS) -> str:
    """The draw style of a terrain name (floor for a name no kind declares)."""
    kind = kinds.get(name)
    return kind.style if kind is not None else "floor"


def standable(name: str, kinds: Mapping[str, TerrainKind] = CORE_KINDS) -> bool:
    """Whether a figure may stand on terrain ``name`` by its kind (not on a name no kind declares)."""
    kind = kinds.get(name)
    return kind is not None and kind.standable


@dataclass(frozen=True, slots=True)
class CellInfo:
    """Terrain of one cell: cover (a terrain kind's name), height level and the tokens lying on it (treasure…)."""

    terrain: str = Terrain.FLOOR
    level: int = 0
    tokens: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "terrain", terrain_name(self.terrain))  # a shared kind reads as its Terrain
