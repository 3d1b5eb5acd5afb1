"""Game state as plain, serialisable data: figures, doors, tokens, turn bookkeeping, the pending step.

Turn and phase bookkeeping is kept apart from board data (the board is static, in the scenario).
``step`` is the rule set's pending decision, a typed step (:mod:`engine.flow.steps`) whose dict form keeps
the state round-tripping through JSON.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from engine.board.base import Cell
from engine.flow.steps import Setup, Step, step_from_dict
from engine.hexes import Edge, edge


@dataclass
class FigureState:
    """One figure in play. ``facing`` is a board direction (on a hex map the index of the neighbour it looks at,
    :data:`engine.hexes.DIRECTIONS`: 0 is +q, counter-clockwise after; rule sets without facing leave it 0).
    ``level`` is the height it stands at when a rule set says so (None: the level of its cell). ``arrived`` orders
    a stack: figures sharing a cell are listed in the order they came (see :meth:`GameState.put`). ``values`` holds
    a rule set's own per-figure values in play, plain JSON by name (hit points left, a unit state, being off
    balance); the core never reads them, and the rule set says how the tablets show them (``RuleSet.badges``)."""

    id: str
    side: str
    hex: Cell | None
    alive: bool = True
    on_table: bool = True  # False once its removal was confirmed
    facing: int = 0
    carrying: list[str] = field(default_factory=list)
    level: int | None = None
    arrived: int = 0
    values: dict[str, Any] = field(default_factory=dict)

    def mark(self, name: str, value: int | bool | None) -> None:
        """Set a flag or counter among the values (None or False clears it)."""
        if value is None or value is False:
            self.values.pop(name, None)
        else:
            self.values[name] = value

    def flag(self, name: str) -> bool:
        """Whether a flag is set among the values."""
        return self.values.get(name) is True

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "hex": None if self.hex is None else [self.hex.q, self.hex.r],
            "alive": self.alive,
            "on_table": self.on_table,
            "facing": self.facing,
            "carrying": list(self.carrying),
            "level": self.level,
            "arrived": self.arrived,
            "values": copy.deepcopy(self.values),  # plain JSON, maybe nested: never shared with the copy
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FigureState:
        h = d["hex"]
        return cls(
            d["id"],
            d["side"],
            None if h is None else Cell(h[0], h[1]),
            d["alive"],
            d["on_table"],
            d["facing"],
            list(d["carrying"]),
            d.get("level"),  # absent in states saved before figures had levels and stacks
            d.get("arrived", 0),
            copy.deepcopy(dict(d.get("values", {}))),  # absent in states saved before rule sets kept values
        )


@dataclass
class GameState:
    scenario_id: str
    ruleset: str
    figures: dict[str, FigureState]
    doors: dict[Edge, str]  # "closed" | "open" | "locked"
    tokens: dict[str, Cell | None]  # where each token lies; None while carried
    round: int = 0
    turn_order: list[int] = field(default_factory=list)  # player indices, first player first
    active: int = 0  # index into turn_order
    phase: str = "setup"
    step: Step = field(default_factory=Setup)
    turn_sets: dict[str, list[str]] = field(default_factory=dict)  # per-turn figure sets ("acted", …)
    pending_removals: list[str] = field(default_factory=list)
    winner: str | None = None
    serial: int = 0  # actions applied so far
    # A game master's word in play (engine.board.marks, engine.rules.gm): cells marked with a terrain kind,
    # and rulings by key ("sight:B3:D4" → "clear"), each read by the rule set that declares it.
    marks: dict[Cell, str] = field(default_factory=dict)
    rulings: dict[str, str] = field(default_factory=dict)

    def alive(self) -> list[FigureState]:
        return [f for f in self.figures.values() if f.alive]

    def figures_at(self, h: Cell) -> list[FigureState]:
        """The figures in play on a cell, a stack in the order they arrived (scenario order among equals)."""
        here = [f for f in self.figures.values() if f.alive and f.hex == h]
        return sorted(here, key=lambda f: f.arrived)  # stable: the scenario's order breaks ties

    def figure_at(self, h: Cell) -> FigureState | None:
        """The figure on a cell, for rule sets that allow one per cell (``one_figure_per_cell``); see
        :meth:`figures_at` for stacks."""
        here = self.figures_at(h)
        return here[0] if here else None

    def put(self, figure: str, h: Cell | None) -> None:
        """Set a figure down on a cell; it goes on top of any stack there (a figure staying put keeps its place)."""
        fig = self.figures[figure]
        if fig.hex != h:
            fig.hex = h
            fig.arrived = self.serial + 1

    def kill(self, figure: str) -> None:
        """The figure is out of the game: no longer alive, and its removal from the table is awaited (the flow asks
        for it before play goes on). A figure already awaiting removal is not asked for twice."""
        self.figures[figure].alive = False
        if figure not in self.pending_removals:
            self.pending_removals.append(figure)

    def door(self, a: Cell, b: Cell) -> str | None:
        return self.doors.get(edge(a, b))

    def in_set(self, name: str, figure: str) -> bool:
        return figure in self.turn_sets.get(name, [])

    def add_to_set(self, name: str, figure: str) -> None:
        members = self.turn_sets.setdefault(name, [])
        if figure not in members:
            members.append(figure)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario_id": self.scenario_id,
            "ruleset": self.ruleset,
            "figures": {k: f.to_dict() for k, f in self.figures.items()},
            "doors": [[e.a.q, e.a.r, e.b.q, e.b.r, s] for e, s in sorted(self.doors.items())],
            "tokens": {k: None if h is None else [h.q, h.r] for k, h in self.tokens.items()},
            "round": self.round,
            "turn_order": list(self.turn_order),
            "active": self.active,
            "phase": self.phase,
            "step": self.step.to_dict(),
            "turn_sets": {k: list(v) for k, v in self.turn_sets.items()},
            "pending_removals": list(self.pending_removals),
            "winner": self.winner,
            "serial": self.serial,
            "marks": [[h.q, h.r, t] for h, t in sorted(self.marks.items())],
            "rulings": dict(sorted(self.rulings.items())),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        """The state from its plain form. Its step's kind must be registered (:mod:`engine.flow.steps`): the
        rule set's package registers its kinds when it is loaded, as loading the game's scenario does."""
        return cls(
            scenario_id=d["scenario_id"],
            ruleset=d["ruleset"],
            figures={k: FigureState.from_dict(v) for k, v in d["figures"].items()},
            doors={edge(Cell(a, b), Cell(c, e)): s for a, b, c, e, s in d["doors"]},
            tokens={k: None if h is None else Cell(h[0], h[1]) for k, h in d["tokens"].items()},
            round=d["round"],
            turn_order=list(d["turn_order"]),
            active=d["active"],
            phase=d["phase"],
            step=step_from_dict(d["step"]),
            turn_sets={k: list(v) for k, v in d["turn_sets"].items()},
            pending_removals=list(d["pending_removals"]),
            winner=d["winner"],
            serial=d["serial"],
            marks={Cell(q, r): str(t) for q, r, t in d.get("marks", [])},  # absent in states saved before marks
            rulings={str(k): str(v) for k, v in d.get("rulings", {}).items()},
        )
