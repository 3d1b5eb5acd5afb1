"""The Setup screen: the scenario's sides, players and points balance per side (when the rule set counts
points), and the scenarios the connected engine can start."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion_app.viewmodels.words import join_list, one_paragraph
from engine.i18n import N_, gettext_for, ngettext_for

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

# The scenario colours in words (shown with _()); a colour not named here reads as the scenario writes it.
COLOUR_WORDS: dict[str, str] = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow"),
                                "purple": N_("purple"), "orange": N_("orange"), "white": N_("white"),
                                "black": N_("black")}


def colour_word(name: str) -> str:
    """A scenario colour's name in the table's language."""
    word = COLOUR_WORDS.get(name.strip().lower())
    return _(word) if word else name


@dataclass(frozen=True)
class SideLine:
    id: str
    name: str
    colour: str
    points: int | None  # None: the rule set counts no points
    figures: tuple[str, ...]
    players: tuple[str, ...]

    @property
    def text(self) -> str:
        args = {"side": self.name, "colour": colour_word(self.colour),
                "figures": _n("{n} figure", "{n} figures", len(self.figures)),
                "players": join_list(self.players) or _("no player")}
        if self.points is None:
            return _("{side} ({colour}) — {figures} — played by {players}", **args)
        return _("{side} ({colour}) — {points} — {figures} — played by {players}",
                 points=_n("{n} point", "{n} points", self.points), **args)


@dataclass(frozen=True)
class SetupView:
    scenario_name: str
    description: str
    sides: tuple[SideLine, ...]
    warning: str  # empty when the sides are balanced or the rule set counts no points


def setup_view(scenario: Mapping[str, Any] | None) -> SetupView:
    if not scenario:
        return SetupView(_("No scenario yet"), _("Connect to an engine to load one."), (), "")
    points = scenario.get("points") or {}
    lines = []
    for s in scenario.get("sides") or []:
        sid = str(s["id"])
        lines.append(
            SideLine(
                sid,
                str(s.get("name", sid)),
                str(s.get("colour", "")),
                int(points.get(sid, 0)) if points else None,
                tuple(str(f.get("name")) for f in scenario.get("figures") or [] if f.get("side") == sid),
                tuple(str(p.get("name")) for p in scenario.get("players") or [] if sid in (p.get("sides") or [])),
            )
        )
    warning = ""
    totals = {line.points for line in lines}
    if points and len(totals) > 1:
        parts = join_list(f"{line.name} {line.points}" for line in lines)
        warning = _("Points differ: {sides}. Balance the sides or agree on the handicap.", sides=parts)
    return SetupView(str(scenario.get("name", "")), one_paragraph(str(scenario.get("description", ""))), tuple(lines),
                     warning)


@dataclass(frozen=True)
class ScenarioChoice:
    """A scenario the engine can start (``new_game`` takes its ``name``), or one it cannot read (``error``)."""

    name: str
    title: str
    ruleset: str
    description: str
    error: str = ""

    @property
    def button_text(self) -> str:
        if self.error:
            return _("{name}: cannot be started", name=self.name)
        return _("{title} ({ruleset})", title=self.title, ruleset=self.ruleset) if self.ruleset else self.title

    @property
    def detail(self) -> str:
        """One paragraph under the button: what the scenario is about, or what is wrong with its file."""
        return self.error or one_paragraph(self.description)


def scenario_choices(reply: Mapping[str, Any]) -> list[ScenarioChoice]:
    """The engine's answer to ``scenarios``, in its order (none when it refused)."""
    if not reply.get("ok"):
        return []
    out = []
    for row in reply.get("scenarios") or []:
        if not isinstance(row, Mapping) or not row.get("name"):
            continue
        name = str(row["name"])
        out.append(ScenarioChoice(name, str(row.get("title") or name),
                                  str(row.get("ruleset_title") or row.get("ruleset") or ""),
                                  str(row.get("description") or ""), str(row.get("error") or "")))
    return out
