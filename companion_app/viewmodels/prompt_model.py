"""The prompt panel: what to roll, who rolls, what each result means and how likely it is; the die
faces to enter, the choices as buttons and as board taps, and the action each answer becomes.

Answers are action dicts in the engine's own form (``engine.actions.action_to_dict``); the engine
decides whether they are legal. A prompt the engine marks as the game master's (its ``decider`` is ``gm``) is
answered only on the GM's tablet: elsewhere its answers are greyed, saying why.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion_app.viewmodels.board_model import BoardView, HexKey, hex_key
from companion_app.viewmodels.overlays import QueryOverlay, query_overlay
from companion_app.viewmodels.words import cell_noun, cells, join_clauses, join_list
from engine.flow.words import is_plural
from engine.i18n import gettext_for

_ = gettext_for(__name__)

# Seats around a tablet lying flat: the first side sits at the bottom edge, the second opposite.
SEAT_ANGLES: tuple[int, ...] = (0, 180, 90, 270)


@dataclass(frozen=True)
class DieView:
    index: int
    roller: str
    roller_name: str
    sides: int
    purpose: str
    figure_name: str
    outcomes: tuple[str, ...]  # "5–6: moves up to 3 hexes"

    @property
    def title(self) -> str:
        plural = is_plural(self.roller_name)
        if self.figure_name:
            if plural:
                return _("{side} roll 1d{sides} for the {figure}", side=self.roller_name, sides=self.sides,
                         figure=self.figure_name)
            return _("{side} rolls 1d{sides} for the {figure}", side=self.roller_name, sides=self.sides,
                     figure=self.figure_name)
        if plural:
            return _("{side} roll 1d{sides}", side=self.roller_name, sides=self.sides)
        return _("{side} rolls 1d{sides}", side=self.roller_name, sides=self.sides)

    @property
    def heading(self) -> str:
        """The title with what the roll is for."""
        return _("{title} ({purpose})", title=self.title, purpose=self.purpose) if self.purpose else self.title

    @property
    def column_title(self) -> str:
        """The heading of the die's column among opposed dice: what it is for (its figure) first, else who rolls."""
        if not self.figure_name:
            return self.heading
        if self.purpose:
            return _("{figure}: 1d{sides} ({purpose})", figure=self.figure_name, sides=self.sides, purpose=self.purpose)
        return _("{figure}: 1d{sides}", figure=self.figure_name, sides=self.sides)

    @property
    def column_roller(self) -> str:
        """Who rolls the die of a column titled by its figure ("Goblins roll it"); empty when the title says it."""
        if not (self.figure_name and self.roller_name):
            return ""
        if is_plural(self.roller_name):
            return _("{side} roll it", side=self.roller_name)
        return _("{side} rolls it", side=self.roller_name)

    @property
    def summary(self) -> str:
        """One sentence: who rolls which die for what, and what each result will mean."""
        if not self.outcomes:
            return self.heading
        return _("{title}: {outcomes}", title=self.heading, outcomes=join_clauses(self.outcomes))


@dataclass(frozen=True)
class OptionView:
    id: str
    label: str
    key: HexKey | None
    figure: str | None


@dataclass(frozen=True)
class MoveView:
    key: HexKey
    label: str
    cost: int


def _option_key(option: Mapping[str, Any], board: BoardView) -> HexKey | None:
    """Where a choice is tapped: its hex, else the hex of the figure it names."""
    key = hex_key(option.get("hex"))
    fig = board.figures.get(option.get("figure") or "")
    return fig.key if key is None and fig is not None and fig.alive else key


def _outcome_text(o: Mapping[str, Any]) -> str:
    low, high = int(o.get("low", 0)), int(o.get("high", 0))
    span = str(low) if low == high else f"{low}–{high}"
    return f"{span}: {o.get('text', '')}"


def _percent(p: float) -> str:
    if 0.0 < p < 0.01:
        return "<1%"
    return f"{round(p * 100):d}%"


@dataclass
class PromptModel:
    """One engine prompt and the die faces entered so far (reset whenever a new prompt arrives)."""

    kind: str
    side: str | None
    side_name: str
    text: str
    note: str
    figure: str | None
    figure_name: str
    dice: list[DieView]
    chances: list[str]
    options: list[OptionView]
    moves: dict[HexKey, MoveView]
    entered: list[int | None] = field(default_factory=list)
    seat_angle: int = 0
    board_kind: str = "hex"  # what the cells are called in texts: hexes or zones
    decider: str = "players"  # who answers, as the engine says: "players", "gm" (the GM's tablet only) or "table"
    decider_text: str = ""  # the engine's words for who decides
    gm_here: bool = False  # this tablet is the game master
    overlay: QueryOverlay | None = None  # what the board shows while the prompt waits (the line a GM rules on)

    # ---------------------------------------------------------------- building

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any], board: BoardView, gm_here: bool = False) -> PromptModel:
        p = snapshot.get("prompt") or {"kind": "game_over", "text": _("Waiting for the engine…")}
        outcomes = p.get("outcomes") or []
        chances = p.get("chances") or []
        dice = []
        for i, d in enumerate(p.get("dice") or []):
            per_die = outcomes[i] if i < len(outcomes) else []
            dice.append(
                DieView(
                    index=i,
                    roller=str(d.get("roller", "")),
                    roller_name=board.side_name(d.get("roller")),
                    sides=int(d.get("sides", 6)),
                    purpose=str(d.get("purpose", "")),
                    figure_name=board.figure_name(d.get("figure")),
                    outcomes=tuple(_outcome_text(o) for o in per_die),
                )
            )
        side = p.get("side")
        seat = board.sides[side].index if side in board.sides else 0
        options = [
            OptionView(str(o["id"]), str(o.get("label", o["id"])), _option_key(o, board), o.get("figure"))
            for o in p.get("options") or []
        ]
        moves = {}
        for m in p.get("moves") or []:
            k = hex_key(m.get("hex"))
            if k is not None:
                moves[k] = MoveView(k, str(m.get("label", board.label(k))), int(m.get("cost", 0)))
        return cls(
            kind=str(p.get("kind", "game_over")),
            side=side,
            side_name=board.side_name(side),
            text=str(p.get("text", "")),
            note=str(p.get("note", "")),
            figure=p.get("figure"),
            figure_name=board.figure_name(p.get("figure")),
            dice=dice,
            chances=[f"{c.get('text', '')}: {_percent(float(c.get('probability', 0.0)))}" for c in chances],
            options=options,
            moves=moves,
            entered=[None] * len(dice),
            seat_angle=SEAT_ANGLES[seat % len(SEAT_ANGLES)],
            board_kind=board.kind,
            decider=str(p.get("decider", "players")),
            decider_text=str(p.get("decider_text", "")),
            gm_here=gm_here,
            overlay=query_overlay(p["overlay"]) if isinstance(p.get("overlay"), Mapping) else None,
        )

    # ---------------------------------------------------------------- what to show

    @property
    def why_not_here(self) -> str:
        """Why this tablet cannot answer (the answers greyed with it); empty when it can."""
        if self.decider == "gm" and not self.gm_here:
            return _("Only the game master answers this: on the GM's tablet, or enter the GM code on the Setup "
                     "screen (Become GM)")
        return ""

    @property
    def opposed(self) -> bool:
        """Dice rolled by different sides: shown side by side."""
        return len({d.roller for d in self.dice}) > 1

    @property
    def focus(self) -> int | None:
        """Index of the next die to enter (focus moves on by itself), None when all are in."""
        return next((i for i, v in enumerate(self.entered) if v is None), None)

    @property
    def move_hint(self) -> str:
        """How to answer a move prompt, in the board's words: "Tap a shaded hex or drag the Knight there (5 hexes)."""
        n = len(self.moves)
        return _("Tap a shaded {cell} or drag the {figure} there ({count}).", cell=cell_noun(self.board_kind),
                 figure=self.figure_name, count=cells(self.board_kind, n))

    def summary_lines(self) -> list[str]:
        lines = [d.summary for d in self.dice]
        if self.chances:
            lines.append(_("Chances before the roll: {chances}", chances=join_clauses(self.chances)))
        return lines

    def options_at(self, key: HexKey, board: BoardView) -> list[OptionView]:
        """The choices a tap on this hex means (retreat hex, target…): those naming figures in the order of its
        stack (top first), then the others."""
        here = [o for o in self.options if o.key == key]
        order = [f.id for f in board.figures_at(key)]
        return sorted(here, key=lambda o: order.index(o.figure) if o.figure in order else len(order))

    # ---------------------------------------------------------------- answers

    def _answerable(self) -> None:
        if self.why_not_here:
            raise ValueError(self.why_not_here)

    def enter_face(self, value: int, index: int | None = None) -> dict[str, Any] | None:
        """Record the face of die ``index`` (default: the focused one; the sides enter in any order, and a die
        entered may be changed until the last is in); returns the roll action once every die is entered."""
        self._answerable()
        i = self.focus if index is None else index
        if i is None or self.kind != "roll" or not 0 <= i < len(self.dice) or self.focus is None:
            return None
        sides = self.dice[i].sides
        if not 1 <= value <= sides:
            raise ValueError(_("a d{sides} shows 1 to {sides}, not {value}", sides=sides, value=value))
        self.entered[i] = value
        if self.focus is None:
            return {"kind": "roll", "values": [int(v) for v in self.entered if v is not None], "virtual": False}
        return None

    def clear_entry(self) -> None:
        self.entered = [None] * len(self.dice)

    def virtual_roll(self, rng: random.Random | None = None) -> dict[str, Any]:
        """'Roll for me': the app rolls every die; the engine logs it as a virtual roll."""
        self._answerable()
        r = rng or random.SystemRandom()
        values = [r.randint(1, d.sides) for d in self.dice]
        return {"kind": "roll", "values": values, "virtual": True}

    def choose(self, option_id: str) -> dict[str, Any]:
        self._answerable()
        if not any(o.id == option_id for o in self.options):
            known = join_list(o.id for o in self.options) or _("none")
            raise ValueError(_("{option} is not one of this prompt's choices ({known})", option=repr(option_id),
                               known=known))
        return {"kind": "choose", "option": option_id}

    def move_to(self, key: HexKey, board: BoardView) -> dict[str, Any]:
        """A tap or drag onto a hex during a move prompt; refused with the reason when not listed."""
        if self.kind != "move" or self.figure is None:
            raise ValueError(_("no figure is waiting to move right now"))
        self._answerable()
        if key not in self.moves:
            reachable = join_list(m.label for m in sorted(self.moves.values(), key=lambda m: (m.cost, m.label)))
            raise ValueError(_("{cell} is not a legal move for the {figure}; legal: {cells}", cell=board.label(key),
                               figure=self.figure_name, cells=reachable or _("none")))
        return {"kind": "move", "figure": self.figure, "to": [key[0], key[1]]}

    def remove(self) -> dict[str, Any]:
        if self.kind != "remove" or self.figure is None:
            raise ValueError(_("no figure is waiting to be removed"))
        self._answerable()
        return {"kind": "remove", "figure": self.figure}
