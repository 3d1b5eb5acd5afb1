"""A skill's shape on the board: the hexes it covers, who is inside, whom it affects and why not.

Shapes (scenario_fields.Shape): a single target within range; an area within ``size`` hexes of a
chosen hex within range; a fan of the skill's range from the user; an area around the user itself.
Sight: a single target must be seen; an area needs sight of its chosen hex only; a fan needs sight of
each target; an area around the user reaches unseen targets. A character up in full flight is
reached only by attacks of range 10 or more, or by a flying attacker — whichever side it is on: an
"everyone" (敵味方全員) area of range under 10 passes a friend in full flight by too (third reading).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.hexes import Hex
from engine.i18n import gettext_for

from . import fans, flight, ranges
from .party import Affects, affected, same_party
from .scenario_fields import Shape
from .situation import Figure, Situation

_ = gettext_for(__name__)


@dataclass(frozen=True)
class Skill:
    """A skill's shape: range in hexes, area radius (area and self shapes), and whom it is meant for."""

    shape: Shape
    reach: int
    size: int = 0
    affects: Affects = Affects.ENEMIES


@dataclass(frozen=True)
class Use:
    """One way to use a skill: the hexes covered, everyone inside, who is affected, and why anyone is not."""

    covered: frozenset[Hex]
    inside: tuple[Figure, ...]
    hit: tuple[Figure, ...]
    allowed: bool = True
    reason: str = ""
    spared: dict[str, str] = field(default_factory=dict)  # inside but not affected → why


def aim_problem(sit: Situation, user: Figure, skill: Skill, chosen: Hex) -> str:
    """Why the user may not aim at ``chosen`` (single target or area centre); empty when it may."""
    if chosen not in sit.board:
        return _("that hex is not on the map")
    if not ranges.in_range(user.hex, chosen, skill.reach):
        return _("{hex} is {distance} hexes away; the range is {reach}", hex=sit.board.label(chosen),
                 distance=user.hex.distance(chosen), reach=skill.reach)
    if not sit.sight.sees(user.hex, chosen):
        blocker = sit.sight.line(user.hex, chosen).blocker
        if isinstance(blocker, Hex):
            return _("{hex} is out of sight ({blocker} is in the way)", hex=sit.board.label(chosen),
                     blocker=sit.board.label(blocker))
        return _("{hex} is out of sight", hex=sit.board.label(chosen))
    return ""


def covered(sit: Situation, user: Figure, skill: Skill, chosen: Hex | None = None,
            direction: int | None = None) -> set[Hex]:
    """The hexes a use covers (a single target's hex, an area, a fan, the area around the user)."""
    if skill.shape is Shape.SINGLE:
        return {chosen} if chosen is not None and chosen in sit.board else set()
    if skill.shape is Shape.AREA:
        return ranges.area_around(chosen, skill.size, sit.board) if chosen is not None else set()
    if skill.shape is Shape.FAN:
        return fans.fan(user.hex, direction if direction is not None else 0, skill.reach, sit.board)
    return ranges.area_around(user.hex, skill.size, sit.board)


def use(sit: Situation, user: Figure, skill: Skill, chosen: Hex | None = None, direction: int | None = None) -> Use:
    """What using ``skill`` aimed at ``chosen`` (single, area) or towards ``direction`` (fan) does."""
    hexes = covered(sit, user, skill, chosen, direction)
    inside = tuple(sit.inside(hexes))
    reason = ""
    if skill.shape in (Shape.SINGLE, Shape.AREA):
        reason = _("choose a hex") if chosen is None else aim_problem(sit, user, skill, chosen)
    meant = {c.id for c in affected(user.character, (f.character for f in inside), skill.affects,
                                    sit.party_hit(user.id))}
    spared: dict[str, str] = {}
    hit: list[Figure] = []
    for f in inside:
        if f.id not in meant:
            spared[f.id] = (_("the user's party") if same_party(user.character, f.character)
                            else _("not what the skill is meant for"))
        elif skill.shape is Shape.FAN and not sit.sight.sees(user.hex, f.hex):
            spared[f.id] = _("out of the user's sight (a fan needs sight of each target)")
        elif not flight.can_attack(skill.reach, user.flying, f.airborne):  # friend or foe: where it is decides
            spared[f.id] = _("up in full flight: only attacks of range {reach} or more, or a flying attacker, reach "
                             "it", reach=flight.FULL_FLIGHT_REACH)
        else:
            hit.append(f)
    return Use(frozenset(hexes), inside, tuple(hit), not reason, reason, spared)
