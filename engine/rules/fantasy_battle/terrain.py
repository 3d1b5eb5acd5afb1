"""Fantasy Battle's reading of the board: contact, movement steps and what blocks a shot.

Adjacency for contact, combat and the shooting restrictions means neighbouring hexes not separated
by a wall or a closed door (RULES.md §1: nobody fights through a wall).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.board import EdgeKind, Terrain
from engine.board.hex import HexBoard
from engine.hexes import Edge, Hex, edge
from engine.state import FigureState, GameState

ENTERABLE = (Terrain.FLOOR,)  # water, low obstacles and blocking hexes cannot be entered

StepCost = Callable[[Hex, Hex], float | None]


class FBTerrain:
    """Predicates over one board and one game state."""

    def __init__(self, board: HexBoard, state: GameState) -> None:
        self.board = board
        self.state = state

    # -- sides ---------------------------------------------------------------------------------
    def enemies_of(self, side: str) -> list[FigureState]:
        return [f for f in self.state.alive() if f.side != side]

    def friends_of(self, side: str) -> list[FigureState]:
        return [f for f in self.state.alive() if f.side == side]

    # -- edges -----------------------------------------------------------------------------------
    def edge_closed(self, e: Edge) -> bool:
        """A wall, or a door that is not open."""
        kind = self.board.edges.get(e)
        if kind is None:
            return False
        if kind is EdgeKind.WALL:
            return True
        return self.state.doors.get(e, "closed") != "open"

    def open_between(self, a: Hex, b: Hex) -> bool:
        return not self.edge_closed(edge(a, b))

    def in_contact(self, a: Hex, b: Hex) -> bool:
        """Neighbours with no wall or closed door between them."""
        return a.distance(b) == 1 and self.open_between(a, b)

    def contact_enemies(self, figure: FigureState) -> list[FigureState]:
        assert figure.hex is not None
        return sorted(
            (e for e in self.enemies_of(figure.side) if e.hex is not None and self.in_contact(figure.hex, e.hex)),
            key=lambda f: f.id,
        )

    def hex_touches_enemy(self, h: Hex, side: str) -> bool:
        return any(e.hex is not None and self.in_contact(h, e.hex) for e in self.enemies_of(side))

    def threatened(self, side: str) -> set[Hex]:
        """Hexes where a figure of ``side`` would be in contact with an enemy (a move stops there)."""
        out: set[Hex] = set()
        for e in self.enemies_of(side):
            assert e.hex is not None
            out.update(n for n in self.board.neighbours(e.hex) if self.in_contact(e.hex, n))
        return out

    # -- movement --------------------------------------------------------------------------------
    def enterable(self, h: Hex) -> bool:
        return h in self.board and self.board.terrain(h) in ENTERABLE

    def board_step_cost(self) -> StepCost:
        """The price of a step from the board and its doors alone (``step_cost_for`` without the enemies)."""
        tiles = self.board.tiles

        def step_cost(a: Hex, b: Hex) -> float | None:
            info = tiles.get(b)
            if info is None or info.terrain not in ENTERABLE or self.edge_closed(edge(a, b)):
                return None
            return 1.0

        return step_cost

    def step_cost_for(self, side: str) -> StepCost:
        enemy_hexes = {e.hex for e in self.enemies_of(side)}
        # Ordered pairs across closed sides, built once: cheaper than building an Edge per step.
        shut: set[tuple[Hex, Hex]] = set()
        for e in self.board.edges:
            if self.edge_closed(e):
                shut.update(((e.a, e.b), (e.b, e.a)))
        tiles = self.board.tiles

        def step_cost(a: Hex, b: Hex) -> float | None:
            info = tiles.get(b)
            if info is None or info.terrain not in ENTERABLE or b in enemy_hexes or (a, b) in shut:
                return None
            return 1.0

        return step_cost

    # -- shooting ----------------------------------------------------------------------------------
    def sight_blocking_hex(self, h: Hex) -> bool:
        return h in self.board and self.board.terrain(h) is Terrain.BLOCKING
