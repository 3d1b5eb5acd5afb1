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
from engine.lines import Sight, judge_sight, sight_line
from engine.rules.base import TargetInfo
from engine.rules.fantasy_battle.constants import MAGIC_RANGE
from engine.rules.fantasy_battle.terrain import FBTerrain
from engine.state import FigureState


def describe_blocker(
    terrain: FBTerrain, blocker: Hex | Edge | None, shooter: FigureState, names: Callable[[str], str]
) -> str:
    """Plain words for what blocks a line: 'the wall at E4|E5', 'your Knight at C3'."""
    board = terrain.board
    if blocker is None:
        return "nothing"
    if isinstance(blocker, Edge):
        kind = board.edges.get(blocker)
        what = "wall" if kind is EdgeKind.WALL else "locked door" if kind is EdgeKind.LOCKED_DOOR else "closed door"
        return f"the {what} at {board.edge_label(blocker)}"
    occupant = terrain.state.figure_at(blocker)
    if occupant is not None and occupant.side == shooter.side:
        return f"your {names(occupant.id)} at {board.label(blocker)}"
    t = board.terrain(blocker) if blocker in board else Terrain.BLOCKING
    if t is Terrain.LOW_OBSTACLE:
        return f"the low obstacle at {board.label(blocker)} next to the target"
    return f"the obstacle at {board.label(blocker)}"


def shooter_problem(terrain: FBTerrain, figure: FigureState, names: Callable[[str], str]) -> str | None:
    """Why this figure cannot shoot or cast at all right now, or None."""
    engaged = terrain.contact_enemies(figure)
    if engaged:
        return f"{names(figure.id)} is next to {names(engaged[0].id)}: a figure next to an enemy cannot shoot or cast"
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
            f"{names(target.id)} is next to your {names(friends_next[0].id)}: "
            "you may not shoot at an enemy next to a friend"
        )
    if max_range and rng > max_range:
        return fail(f"range {rng}, the scenario limits shots to {max_range}")
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
        return fail(f"no clear shot: blocked by {what}", Sight.BLOCKED, verdict.blocker)
    if verdict.sight is Sight.AMBIGUOUS:
        return TargetInfo(
            target.id,
            "shoot",
            rng,
            Sight.AMBIGUOUS,
            True,
            f"the line of fire only grazes {what}: roll-off, the shooter must roll higher",
            verdict.blocker,
            path,
        )
    return TargetInfo(target.id, "shoot", rng, Sight.CLEAR, True, f"range {rng}, clear shot", None, path)


def magic_info(terrain: FBTerrain, wizard: FigureState, target: FigureState, names: Callable[[str], str]) -> TargetInfo:
    assert wizard.hex is not None and target.hex is not None
    rng = wizard.hex.distance(target.hex)
    line = sight_line(wizard.hex, target.hex)
    problem = shooter_problem(terrain, wizard, names)
    if problem:
        return TargetInfo(target.id, "cast", rng, Sight.CLEAR, False, problem, None, line.plus)
    if rng > MAGIC_RANGE:
        return TargetInfo(
            target.id, "cast", rng, Sight.CLEAR, False, f"range {rng}, wizards reach {MAGIC_RANGE}", None, line.plus
        )
    verdict = judge_sight(line, terrain.sight_blocking_hex, terrain.edge_closed)
    what = describe_blocker(terrain, verdict.blocker, wizard, names)
    if verdict.sight is Sight.BLOCKED:
        return TargetInfo(
            target.id, "cast", rng, Sight.BLOCKED, False, f"not in sight: blocked by {what}", verdict.blocker, line.plus
        )
    if verdict.sight is Sight.AMBIGUOUS:
        return TargetInfo(
            target.id,
            "cast",
            rng,
            Sight.AMBIGUOUS,
            True,
            f"the line of sight only grazes {what}: roll-off, the wizard must roll higher",
            verdict.blocker,
            line.plus,
        )
    return TargetInfo(target.id, "cast", rng, Sight.CLEAR, True, f"range {rng}, in sight", None, line.plus)
