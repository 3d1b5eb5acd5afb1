"""Spaces of the tower: levels, who stands where, walls, battle range between characters and back spaces.

One conscious character per space at the end of a move; friends may be passed unless that friend is in
an enemy's battle range; enemies' spaces are never entered; unconscious characters block nothing. A
character's back space is the space behind it: the neighbour opposite the way it faces (so the back
space follows the tag on the figure's base, or a tap on the tablet).
"""

from __future__ import annotations

from engine.board import standable
from engine.board.hex import HexBoard
from engine.board.terrain import Terrain
from engine.hexes import Hex, direction_between, edge, opposite
from engine.i18n import gettext_for
from engine.state import FigureState, GameState

from . import height as heights
from .condition import present

_ = gettext_for(__name__)

LOW_OBSTACLE_HEIGHT = 1  # a low obstacle on a space stands this many levels tall (for jumps)
WALL_HEIGHT = 99  # a blocking space is never jumped over


class Spaces:
    """The board and the characters' heights: the facts every rule asks about spaces."""

    def __init__(self, board: HexBoard, heights_by_figure: dict[str, int]) -> None:
        self.board = board
        self.heights = heights_by_figure
        self._kinds = board.kinds

    def level(self, h: Hex) -> int:
        return self.board.level(h)

    def standable(self, h: Hex) -> bool:
        return h in self.board and standable(self.board.terrain(h), self._kinds)

    def open_side(self, a: Hex, b: Hex) -> bool:
        """No wall, door or other movement-blocking edge between two neighbours."""
        spec = self.board.edge_spec(edge(a, b))
        return spec is None or not spec.blocks_movement

    def steps(self, h: Hex) -> list[Hex]:
        """Neighbours a character could step onto from ``h`` (standable, no wall between)."""
        return [n for n in self.board.neighbours(h) if self.standable(n) and self.open_side(h, n)]

    def obstacle_top(self, state: GameState, h: Hex) -> int:
        """The top of what stands on a space: its level plus the tallest character or obstacle there."""
        if h not in self.board:
            return 0
        terrain = self.board.terrain(h)
        tall = 0
        if terrain == Terrain.LOW_OBSTACLE:
            tall = LOW_OBSTACLE_HEIGHT
        elif not self.standable(h):
            tall = WALL_HEIGHT
        for f in state.figures_at(h):
            tall = max(tall, self.heights[f.id])
        return self.level(h) + tall

    # -- characters -------------------------------------------------------------------------------------
    def next_to(self, a: FigureState, b: FigureState) -> bool:
        """Whether two conscious characters stand on adjacent spaces with no wall between, whatever their levels
        (a regenerating wraith is next to nobody)."""
        if not (present(a) and present(b)) or a.hex is None or b.hex is None:
            return False
        return a.hex.distance(b.hex) == 1 and self.open_side(a.hex, b.hex)

    def in_range(self, a: FigureState, b: FigureState) -> bool:
        """Whether two conscious characters are in each other's battle range (a regenerating wraith has none)."""
        if not self.next_to(a, b):
            return False
        assert a.hex is not None and b.hex is not None
        return heights.in_battle_range(self.level(a.hex), self.heights[a.id], self.level(b.hex), self.heights[b.id])

    def space_in_range(self, fig: FigureState, h: Hex, mover: str) -> bool:
        """Whether a character of height ``mover``'s standing on ``h`` would be in ``fig``'s battle range."""
        if not present(fig) or fig.hex is None or fig.hex.distance(h) != 1 or not self.open_side(fig.hex, h):
            return False
        return heights.in_battle_range(self.level(fig.hex), self.heights[fig.id], self.level(h), self.heights[mover])

    def enemies_in_range(self, state: GameState, fig: FigureState) -> list[FigureState]:
        return [o for o in state.alive() if o.side != fig.side and self.in_range(fig, o)]

    def enemies_next_to(self, state: GameState, fig: FigureState) -> list[FigureState]:
        """Conscious enemies on adjacent spaces (隣接), in battle range or not (height may break the range)."""
        return [o for o in state.alive() if o.side != fig.side and self.next_to(fig, o)]

    def others_conscious(self, state: GameState, h: Hex, but: str) -> list[FigureState]:
        """The other characters holding a space (a regenerating wraith holds none: it is entered and passed)."""
        return [f for f in state.figures_at(h) if f.id != but and present(f)]

    def can_enter(self, state: GameState, mover: FigureState, h: Hex) -> str:
        """Why ``mover`` may not step into ``h`` (any way of stepping), or "" when it may."""
        for other in self.others_conscious(state, h, mover.id):
            if other.side != mover.side:
                return _("an enemy stands there")
            if any(self.in_range(other, e) for e in state.alive() if e.side != mover.side):
                return _("the friend there is in an enemy's battle range, so it cannot be passed")
        return ""

    def landing_spaces(self, state: GameState, fig: FigureState, target: FigureState) -> list[Hex]:
        """Where a character that came down on ``target`` (a jump onto it, or a fall into its space) may land: a
        space next to it, no higher than its level (the character came down to it: never back up where it came
        from), holding no other conscious character."""
        if target.hex is None:
            return []
        ceiling = self.level(target.hex)
        return [n for n in self.steps(target.hex)
                if self.level(n) <= ceiling and not self.others_conscious(state, n, fig.id)]

    def can_end(self, state: GameState, fig: FigureState) -> bool:
        """At most one conscious character per space at the end of a move."""
        return fig.hex is not None and not self.others_conscious(state, fig.hex, fig.id)


def back_space(fig: FigureState) -> Hex | None:
    """The space behind a character: the neighbour opposite its facing."""
    if fig.hex is None:
        return None
    return fig.hex.neighbour(opposite(fig.facing))


def facing_for_back(at: Hex, back: Hex) -> int:
    """The facing that makes ``back`` the back space of a character on ``at``."""
    return opposite(direction_between(at, back))


def beyond(a: Hex, b: Hex) -> Hex:
    """The space straight beyond ``b`` seen from ``a`` (where a jump over ``b`` lands)."""
    return b + (b - a)
