"""Shooting and magic: who may shoot or cast at whom, with range, line of sight and the reason why not.

RULES.md §1: shooting needs a ranged weapon and line of sight; it is forbidden when the shooter is in
contact with an enemy, when the target is in contact with one of the shooter's friends, or when a
friend stands on the line of fire. A low obstacle blocks only when it is next to the target and not
next to the shooter. Magic: a wizard hits one visible enemy within 5 hexes; the friend rules do not
apply. A line that only grazes something that would block or forbid the shot is ambiguous: roll-off.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.board import EdgeKind, Terrain
from engine.hexes import Edge, Hex
from engine.i18n import gettext_for
from engine.lines import Sight, judge_sight, sight_line
from engine.rules.base import TargetInfo
from engine.rules.fantasy_battle.constants import MAGIC_RANGE
from engine.rules.fantasy_battle.terrain import FBTerrain
from engine.state import FigureState

_ = gettext_for(__name__)


def describe_blocker(
    terrain: FBTerrain, blocker: Hex | Edge | None, shooter: FigureState, names: Callable[[str], str]
) -> str:
    """Plain words for what blocks a line: 'the wall at E4|E5', 'your Knight at C3'."""
    board = terrain.board
    if blocker is None:
        return _("nothing")
    if isinstance(blocker, Edge):
        kind = board.edges.get(blocker)
        at = board.edge_label(blocker)
        if kind is EdgeKind.WALL:
            return _("the wall at {edge}", edge=at)
        if kind is EdgeKind.LOCKED_DOOR:
            return _("the locked door at {edge}", edge=at)
        return _("the closed door at {edge}", edge=at)
    occupant = terrain.state.figure_at(blocker)
    if occupant is not None and occupant.side == shooter.side:
        return _("your {name} at {cell}", name=names(occupant.id), cell=board.label(blocker))
    t = board.terrain(blocker) if blocker in board else Terrain.BLOCKING
    if t is Terrain.LOW_OBSTACLE:
        return _("the low obstacle at {cell} next to the target", cell=board.label(blocker))
    return _("the obstacle at {cell}", cell=board.label(blocker))


def shooter_problem(terrain: FBTerrain, figure: FigureState, names: Callable[[str], str]) -> str | None:
    """Why this figure cannot shoot or cast at all right now, or None."""
    engaged = terrain.contact_enemies(figure)
    if engaged:
        return _("{name} is next to {enemy}: a figure next to an enemy cannot shoot or cast", name=names(figure.id),
                 enemy=names(engaged[0].id))
    return None


def shot_info(
    terrain: FBTerrain, shooter: FigureState, target: FigureState, max_range: int, names: Callable[[str], str]
) -> TargetInfo:
    assert shooter.hex is not None and target.hex is not None
    rng = shooter.hex.distance(target.hex)
    line = sight_line(shooter.hex, target.hex)
    path = line.plus

    def fail(reason: str, sight: Sight = Sight.CLEAR, blocker: Hex | Edge | None = None) -> TargetInfo:
        return TargetInfo(target.id, "shoot", rng, sight, False, reason, blocker, path)

    problem = shooter_problem(terrain, shooter, names)
    if problem:
        return fail(problem)
    friends_next = [
        f for f in terrain.friends_of(shooter.side) if f.hex is not None and terrain.in_contact(f.hex, target.hex)
    ]
    if friends_next:
        return fail(
            _("{target} is next to your {friend}: you may not shoot at an enemy next to a friend",
              target=names(target.id), friend=names(friends_next[0].id))
        )
    if max_range and rng > max_range:
        return fail(_("range {range}, the scenario limits shots to {max}", range=rng, max=max_range))
    friend_hexes = {f.hex for f in terrain.friends_of(shooter.side) if f.id != shooter.id}

    def hex_blocks(h: Hex) -> bool:
        if h in friend_hexes or terrain.sight_blocking_hex(h):
            return True
        if h in terrain.board and terrain.board.terrain(h) is Terrain.LOW_OBSTACLE:
            assert shooter.hex is not None and target.hex is not None
            return h.distance(target.hex) == 1 and h.distance(shooter.hex) != 1
        return False

    verdict = judge_sight(line, hex_blocks, terrain.edge_closed)
    what = describe_blocker(terrain, verdict.blocker, shooter, names)
    if verdict.sight is Sight.BLOCKED:
        return fail(_("no clear shot: blocked by {what}", what=what), Sight.BLOCKED, verdict.blocker)
    if verdict.sight is Sight.AMBIGUOUS:
        return TargetInfo(
            target.id,
            "shoot",
            rng,
            Sight.AMBIGUOUS,
            True,
            _("the line of fire only grazes {what}: roll-off, the shooter must roll higher", what=what),
            verdict.blocker,
            path,
        )
    return TargetInfo(target.id, "shoot", rng, Sight.CLEAR, True, _("range {range}, clear shot", range=rng), None, path)


def magic_info(terrain: FBTerrain, wizard: FigureState, target: FigureState, names: Callable[[str], str]) -> TargetInfo:
    assert wizard.hex is not None and target.hex is not None
    rng = wizard.hex.distance(target.hex)
    line = sight_line(wizard.hex, target.hex)
    problem = shooter_problem(terrain, wizard, names)
    if problem:
        return TargetInfo(target.id, "cast", rng, Sight.CLEAR, False, problem, None, line.plus)
    if rng > MAGIC_RANGE:
        return TargetInfo(
            target.id, "cast", rng, Sight.CLEAR, False, _("range {range}, wizards reach {reach}", range=rng,
                                                          reach=MAGIC_RANGE), None, line.plus
        )
    verdict = judge_sight(line, terrain.sight_blocking_hex, terrain.edge_closed)
    what = describe_blocker(terrain, verdict.blocker, wizard, names)
    if verdict.sight is Sight.BLOCKED:
        return TargetInfo(
            target.id, "cast", rng, Sight.BLOCKED, False, _("not in sight: blocked by {what}", what=what),
            verdict.blocker, line.plus
        )
    if verdict.sight is Sight.AMBIGUOUS:
        return TargetInfo(
            target.id,
            "cast",
            rng,
            Sight.AMBIGUOUS,
            True,
            _("the line of sight only grazes {what}: roll-off, the wizard must roll higher", what=what),
            verdict.blocker,
            line.plus,
        )
    return TargetInfo(target.id, "cast", rng, Sight.CLEAR, True, _("range {range}, in sight", range=rng), None,
                      line.plus)
