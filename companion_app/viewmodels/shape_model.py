"""A skill's shape chosen on the tablet: the queries that declare ``takes`` (a chosen cell, a size) asked with
the cell the player taps and the size they set — the engine answers the covered cells and who is inside."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion_app.viewmodels.board_model import BoardView, HexKey
from engine.i18n import gettext_for

_ = gettext_for(__name__)

MAX_SIZE = 30


@dataclass(frozen=True)
class ShapeQuery:
    """A query taking a chosen ``cell`` and/or a ``size`` (``scenario.queries[].takes``)."""

    what: str
    label: str
    takes: tuple[str, ...]
    help: str = ""


@dataclass
class ShapeAim:
    """The shape in hand for the figure shown: which query, the cell aimed at, the size (None: the skill's own)."""

    figure: str
    query: ShapeQuery
    cell: HexKey | None = None
    size: int | None = None

    @property
    def wants_cell(self) -> bool:
        return "cell" in self.query.takes

    def grow(self, by: int, start: int = 1) -> None:
        """One size larger or smaller (from ``start`` when the skill's own size is in use); 0 at least."""
        now = self.size if self.size is not None else start
        self.size = max(0, min(MAX_SIZE, now + by)) if "size" in self.query.takes else None

    def fields(self) -> dict[str, Any]:
        """The ``query`` command's fields."""
        out: dict[str, Any] = {"what": self.query.what, "figure": self.figure}
        if self.wants_cell and self.cell is not None:
            out["cell"] = list(self.cell)
        if "size" in self.query.takes and self.size is not None:
            out["size"] = self.size
        return out

    def text(self, board: BoardView) -> str:
        """What is in hand, in words, with what a tap does now."""
        size = _("size {n}", n=self.size) if self.size is not None else _("the skill's own size")
        args = {"shape": self.query.label, "figure": board.figure_name(self.figure), "size": size}
        if not self.wants_cell:
            return _("{shape} of {figure}, {size}", **args)
        if self.cell is None:
            return _("{shape} of {figure}, {size}: tap a hex to aim", **args)
        return _("{shape} of {figure}, {size} at {cell}", cell=board.label(self.cell), **args)
