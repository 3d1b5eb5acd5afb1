"""Marker assignment on the Camera screen: "put a figure down, tap the figure it is".

For each tag the engine reports as unknown, the figures it may be: every figure still in play,
named with its hex so two Goblins can be told apart. Plain Python; the engine decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.i18n import gettext_for

_ = gettext_for(__name__)


@dataclass(frozen=True)
class FigureChoice:
    figure: str
    label: str


@dataclass(frozen=True)
class UnknownTag:
    marker: int
    choices: tuple[FigureChoice, ...]

    @property
    def title(self) -> str:
        return _("Tag {marker} is on the base of:", marker=self.marker)


def unknown_tags(scenario: Mapping[str, Any] | None, snapshot: Mapping[str, Any] | None,
                 table: Mapping[str, Any] | None) -> tuple[UnknownTag, ...]:
    """The unknown tags with the figures each may be given to."""
    markers = [m for m in (table or {}).get("unknown_markers") or [] if isinstance(m, int)]
    if not markers or not scenario:
        return ()
    labels = {tuple(t["hex"]): t["label"] for t in scenario.get("board", {}).get("tiles", [])}
    state = ((snapshot or {}).get("state") or {}).get("figures") or {}
    choices = []
    for spec in scenario.get("figures", []):
        fig = state.get(spec["id"], {})
        if fig and not fig.get("alive", True):
            continue
        where = labels.get(tuple(fig["hex"])) if fig.get("hex") else None
        choices.append(FigureChoice(spec["id"], _("{name} ({cell})", name=spec["name"], cell=where) if where
                                    else spec["name"]))
    return tuple(UnknownTag(m, tuple(choices)) for m in markers)
