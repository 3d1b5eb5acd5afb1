"""Edge kinds: what may stand on the side between two hexes, declared by the core and by each rule set.

The core declares the three kinds every rule set shares (:data:`CORE_EDGES`: wall, door, locked door;
their names are the :class:`EdgeKind` constants). A rule set adds its own (``RuleSet.edge_kinds``: a
Laramie black line that stops feet but not eyes, a fence…) with the generic properties the core and the
tablets need: whether it blocks movement and sight, whether it is a door that opens in play, and how the
tablets draw it, as one of the few :data:`EDGE_STYLES` they know. A board's edge holds the kind's name;
the shared kinds read back as their :class:`EdgeKind` member, so ``is`` checks against them keep working.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.i18n import N_


class EdgeKind(StrEnum):
    """The names of the edge kinds every rule set shares (a member is its name, a ``str``)."""

    WALL = "wall"
    DOOR = "door"
    LOCKED_DOOR = "locked"


# How the tablets may draw an edge kind (companion_app.viewmodels.palette.EDGE_COLOURS): a wall's light bar, a
# thin dark line, a fence with posts; a door's look follows its state in play ("locked": it starts locked).
EDGE_STYLES: tuple[str, ...] = ("wall", "line", "fence", "door", "locked")
DOOR_STYLES: tuple[str, ...] = ("door", "locked")


@dataclass(frozen=True)
class EdgeKindSpec:
    """One kind of edge: its name in scenarios, a line for people, and what the core and tablets need."""

    name: str
    help: str
    blocks_movement: bool = True  # the core's default (the auto player's walks); rule sets judge moves themselves
    blocks_sight: bool = True  # the core's default line-of-sight judgement; rule sets may judge otherwise
    style: str = "wall"  # how the tablets draw it, one of EDGE_STYLES
    door: bool = False  # it opens and closes in play (its state lives in the game state); blocks only when shut

    def __post_init__(self) -> None:
        if not self.name or not self.name.replace("_", "").isalnum() or self.name != self.name.lower():
            raise ValueError(f"edge kind name {self.name!r} must be a lower-case word (letters, digits, _)")
        if self.style not in EDGE_STYLES:
            raise ValueError(f"edge kind {self.name!r} has draw style {self.style!r}; use one of {EDGE_STYLES}")
        if self.door != (self.style in DOOR_STYLES):
            raise ValueError(f"edge kind {self.name!r}: a door is drawn as one of {DOOR_STYLES} and only a door is; "
                             f"set door={self.style in DOOR_STYLES} or another style")

    def blocks_now(self, state: str | None = None) -> bool:
        """Whether it stops a step, a door in ``state`` (open, closed, locked; closed when None)."""
        if self.door:
            return state != "open"
        return self.blocks_movement


CORE_EDGES: tuple[EdgeKindSpec, ...] = (
    EdgeKindSpec(EdgeKind.WALL, N_("a wall"), blocks_movement=True, blocks_sight=True, style="wall"),
    EdgeKindSpec(EdgeKind.DOOR, N_("a door: blocks while shut, opened in play"), style="door", door=True),
    EdgeKindSpec(EdgeKind.LOCKED_DOOR, N_("a locked door: opened once unlocked"), style="locked", door=True),
)
CORE_EDGE_KINDS: dict[str, EdgeKindSpec] = {k.name: k for k in CORE_EDGES}


def edge_name(name: str) -> str:
    """The name as a board stores it: the :class:`EdgeKind` member for a shared kind, else the name itself."""
    try:
        return EdgeKind(name)
    except ValueError:
        return str(name)


def edge_kinds(own: Iterable[EdgeKindSpec] = ()) -> dict[str, EdgeKindSpec]:
    """The shared edge kinds and a rule set's own, by name; refuses an own kind that repeats a name."""
    kinds = dict(CORE_EDGE_KINDS)
    for kind in own:
        if kind.name in kinds:
            raise ValueError(f"edge kind {kind.name!r} is declared twice (the shared kinds are "
                             f"{', '.join(CORE_EDGE_KINDS)}); give it another name")
        kinds[kind.name] = kind
    return kinds
