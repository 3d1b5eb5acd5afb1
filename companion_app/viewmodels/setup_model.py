"""The Setup screen: the scenario's sides, players and points balance per side."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SideLine:
    id: str
    name: str
    colour: str
    points: int
    figures: tuple[str, ...]
    players: tuple[str, ...]

    @property
    def text(self) -> str:
        who = ", ".join(self.players) or "no player"
        return f"{self.name} ({self.colour}) — {self.points} points — {len(self.figures)} figures — played by {who}"


@dataclass(frozen=True)
class SetupView:
    scenario_name: str
    description: str
    sides: tuple[SideLine, ...]
    warning: str  # empty when the sides are balanced


def setup_view(scenario: Mapping[str, Any] | None) -> SetupView:
    if not scenario:
        return SetupView("No scenario yet", "Connect to an engine to load one.", (), "")
    points = scenario.get("points") or {}
    lines = []
    for s in scenario.get("sides") or []:
        sid = str(s["id"])
        lines.append(
            SideLine(
                sid,
                str(s.get("name", sid)),
                str(s.get("colour", "")),
                int(points.get(sid, 0)),
                tuple(str(f.get("name")) for f in scenario.get("figures") or [] if f.get("side") == sid),
                tuple(str(p.get("name")) for p in scenario.get("players") or [] if sid in (p.get("sides") or [])),
            )
        )
    warning = ""
    totals = {line.points for line in lines}
    if len(totals) > 1:
        parts = ", ".join(f"{line.name} {line.points}" for line in lines)
        warning = f"Points differ: {parts}. Balance the sides or agree on the handicap."
    return SetupView(str(scenario.get("name", "")), str(scenario.get("description", "")), tuple(lines), warning)
