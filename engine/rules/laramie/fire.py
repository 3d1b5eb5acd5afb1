"""Fire: who may shoot whom, and the to-hit number of a normal shot with every modifier named.

Normal fire: 1d10 + the range row + the target modifiers (obstacle +2, cover +2, the lumber yard on the
line +2, a target not facing the shooter −2) at or under the shooter's hit value, adjusted by its state,
hits; a natural 1 always hits, a natural 10 always misses. Both fire types need the target inside the
shooter's field of fire and a line that is not blocked.

Prone rules: outside open ground a prone unit can neither fire nor be fired at normally — unless the two
are adjacent and one of them is normal, or they share a hex; a jump-prone unit never has that exception.
A prone target with a +2 where it is, two or more hexes from the shooter, is immune to normal fire.

Once a shot is legal at its chosen target, a miss is checked against the rest of that side in the hex whatever
their states (``stack_check``). A line the two nudged readings judge differently (``sight``) makes a shot in
doubt: :attr:`Shot.readings` holds the shot as each reading gives it, for the players' roll-off.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.board.hex import HexBoard
from engine.i18n import gettext_for
from engine.scenario import FigureSpec
from engine.state import FigureState
from engine.texts import join_list

from . import data, scenario_fields, terrain, units
from .dice import chance
from .field_of_fire import in_field_of_fire
from .sight import MINUS, PLUS, LineOfFire, line_of_fire

_ = gettext_for(__name__)


@dataclass(frozen=True)
class Modifier:
    """One modifier: what it is for and what it adds."""

    name: str
    value: int

    def text(self) -> str:
        return _("{name} {value:+d}", name=self.name, value=self.value)


@dataclass(frozen=True)
class Shot:
    """A possible shot of ``shooter`` at ``target``: allowed or why not, the hit value and the die's modifiers."""

    shooter: str
    target: str
    kind: str  # "normal" or "suppressive"
    allowed: bool
    reason: str
    range: int
    hit_value: int  # the value the die must reach (normal: hit value; suppressive: hit or damage), state included
    value_modifiers: tuple[Modifier, ...]
    die_modifiers: tuple[Modifier, ...]
    line: LineOfFire
    # In doubt: the shot as the line nudged either way gives it (plus, minus); the players roll off for it.
    readings: tuple[Shot, ...] = ()

    @property
    def in_doubt(self) -> bool:
        return bool(self.readings)

    @property
    def die_modifier(self) -> int:
        return sum(m.value for m in self.die_modifiers)

    @property
    def chance(self) -> float:
        """The chance to hit; for a shot in doubt, the better of its two readings."""
        if self.readings:
            return max(s.chance for s in self.readings)
        return chance(self.die_modifier, self.hit_value) if self.allowed else 0.0

    def need(self) -> str:
        """The to-hit number in words: "1d10 +1 ≦ 4 (40%)"; for a shot in doubt, both readings."""
        if self.readings:
            plus, minus = (s.need() if s.allowed else _("no shot ({reason})", reason=s.reason) for s in self.readings)
            return _("the line runs along a side or through a corner — roll off: {plus} or {minus}", plus=plus,
                     minus=minus)
        mod = f" {self.die_modifier:+d}" if self.die_modifier else ""
        return f"1d10{mod} ≦ {self.hit_value} ({round(self.chance * 100)}%)"

    def value_breakdown(self) -> str:
        """The modifiers of the value: "hit value 6, prone −2"."""
        return join_list(m.text() for m in self.value_modifiers)

    def breakdown(self) -> str:
        """Every modifier: "hit 6, prone −2; range 9 +1, cover +2"; for a shot in doubt, each reading's."""
        if self.readings:
            plus, minus = (s.breakdown() if s.allowed else s.reason for s in self.readings)
            return _("{plus} / {minus}", plus=plus, minus=minus)
        die = join_list(m.text() for m in self.die_modifiers) or _("no modifiers to the die")
        return _("{value}; {die}", value=self.value_breakdown(), die=die)


def close_quarters(a: FigureState, b: FigureState) -> bool:
    """The exception that lets prone units outside open ground fire at each other: the same hex, or
    adjacent with one of the two normal. Never for a jump-prone unit."""
    if JUMP in (units.state_of(a), units.state_of(b)):
        return False
    assert a.hex is not None and b.hex is not None
    d = a.hex.distance(b.hex)
    return d == 0 or (d == 1 and units.NORMAL in (units.state_of(a), units.state_of(b)))


JUMP = units.JUMP_PRONE


def max_range() -> int:
    return max(high for _, high, _ in data.range_rows())


def range_modifier(distance: int) -> int | None:
    """The range row's modifier, or None beyond the table."""
    for low, high, mod in data.range_rows():
        if low <= distance <= high:
            return mod
    return None


def shooter_barred(board: HexBoard, shooter: FigureState, target: FigureState) -> str:
    """Why the shooter's state keeps it from firing at the target ("" when it may)."""
    rules = units.rules_of(shooter)
    assert shooter.hex is not None
    state = units.label(rules.name).lower()
    if not rules.fire:
        return _("{state} units cannot fire", state=state)
    if rules.open_only and not terrain.open_ground(board, shooter.hex) and not close_quarters(shooter, target):
        return _("a {state} unit fires only from open ground (or at close quarters)", state=state)
    return ""


def _value(spec: FigureSpec, shooter: FigureState, use_damage: bool) -> tuple[int, tuple[Modifier, ...]]:
    rules = units.rules_of(shooter)
    base = Modifier(_("damage value") if use_damage else _("hit value"), (scenario_fields.damage if use_damage else
                                                                            scenario_fields.hit)(spec))
    mods = (base,) + ((Modifier(units.label(rules.name).lower(), rules.hit),) if rules.hit else ())
    return sum(m.value for m in mods), mods


def _common(board: HexBoard, shooter: FigureState, target: FigureState, line: LineOfFire,
            stack_check: bool) -> tuple[str, int]:
    """The checks both fire types share: the target's side and place, the shooter's state (not in a stack check),
    the field of fire, the line."""
    assert shooter.hex is not None and target.hex is not None
    distance = shooter.hex.distance(target.hex)
    if target.side == shooter.side:
        return _("not an enemy"), distance
    barred = "" if stack_check else shooter_barred(board, shooter, target)
    if barred:
        return barred, distance
    if not in_field_of_fire(shooter.hex, shooter.facing, target.hex):
        return _("outside the field of fire (the front half)"), distance
    if line.blocked:
        return _("the line of sight is blocked"), distance
    return "", distance


def _decided(line: LineOfFire, shots: tuple[Shot, Shot]) -> Shot:
    """One shot when both readings of a split ``line`` give the same chance (or neither allows the shot), else
    the shot in doubt."""
    plus, minus = shots
    if plus.allowed == minus.allowed and (not plus.allowed or (plus.die_modifier, plus.hit_value) ==
                                          (minus.die_modifier, minus.hit_value)):
        return replace(plus, line=line)
    return replace(plus, allowed=True, reason="", die_modifiers=(), line=line, readings=shots)


def normal_shot(board: HexBoard, spec: FigureSpec, shooter: FigureState, target: FigureState,
                ruled: int | None = None, stack_check: bool = False) -> Shot:
    """A normal shot with its to-hit number and every modifier, or why it may not be fired.

    ``ruled``: the reading of the line the players chose after a roll-off. ``stack_check``: the shot checks
    another unit of a stack after a miss at a legal target: neither side's state can bar it."""
    assert target.hex is not None and shooter.hex is not None
    line = line_of_fire(board, shooter.hex, target.hex, ruled)
    if line.split:
        return _decided(line, (_normal(board, spec, shooter, target, line.taken(PLUS), stack_check),
                               _normal(board, spec, shooter, target, line.taken(MINUS), stack_check)))
    return _normal(board, spec, shooter, target, line, stack_check)


def _normal(board: HexBoard, spec: FigureSpec, shooter: FigureState, target: FigureState, line: LineOfFire,
            stack_check: bool) -> Shot:
    reason, distance = _common(board, shooter, target, line, stack_check)
    assert target.hex is not None and shooter.hex is not None
    value, value_mods = _value(spec, shooter, use_damage=False)
    die: list[Modifier] = []
    rng = range_modifier(distance)
    if rng is None and not reason:
        reason = _("out of range ({distance} hexes; normal fire reaches {reach})", distance=distance,
                   reach=max_range())
    by_range = Modifier(_("range {distance}", distance=distance), rng or 0)  # shown even when it adds 0
    die.append(by_range)
    covered = not terrain.open_ground(board, target.hex)
    if line.obstacle:
        die.append(Modifier(_("obstacle (wall)"), data.target_modifier("obstacle")))
    if line.lumber_yard:
        die.append(Modifier(_("lumber yard on the line"), data.target_modifier("lumber_yard")))
    if covered and not (line.lumber_yard and terrain.house(board, target.hex)):  # a house beyond: only the +2
        die.append(Modifier(_("target in cover"), data.target_modifier("cover")))
    if not in_field_of_fire(target.hex, target.facing, shooter.hex):
        die.append(Modifier(_("target not facing the shooter"), data.target_modifier("not_facing")))
    prone = units.rules_of(target).prone and not stack_check
    if not reason and prone and covered and not close_quarters(shooter, target):
        reason = _("a prone unit outside open ground takes no normal fire")
    sheltered = covered or line.obstacle or line.lumber_yard
    if not reason and prone and sheltered and distance >= 2:
        reason = _("a prone unit with +2 where it lies is immune to normal fire from 2 or more hexes")
    return Shot(shooter.id, target.id, "normal", not reason, reason, distance, value, value_mods,
                tuple(m for m in die if m.value or m is by_range), line)


def suppressive_shot(board: HexBoard, spec: FigureSpec, shooter: FigureState, target: FigureState,
                     use_damage: bool, ruled: int | None = None) -> Shot:
    """Suppressive fire at the target's hex (the whole hex): only the shooter's state modifies the value;
    no range limit; the outcome is read from the players' own table. Only a reading's block can put it in doubt."""
    assert shooter.hex is not None and target.hex is not None
    line = line_of_fire(board, shooter.hex, target.hex, ruled)
    if line.split:
        return _decided(line, (_suppressive(board, spec, shooter, target, use_damage, line.taken(PLUS)),
                               _suppressive(board, spec, shooter, target, use_damage, line.taken(MINUS))))
    return _suppressive(board, spec, shooter, target, use_damage, line)


def _suppressive(board: HexBoard, spec: FigureSpec, shooter: FigureState, target: FigureState, use_damage: bool,
                 line: LineOfFire) -> Shot:
    reason, distance = _common(board, shooter, target, line, stack_check=False)
    value, value_mods = _value(spec, shooter, use_damage)
    return Shot(shooter.id, target.id, "suppressive", not reason, reason, distance, value, value_mods, (), line)
