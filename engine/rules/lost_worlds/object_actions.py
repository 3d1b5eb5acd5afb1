"""Actions on objects during movement: picking up, examining, dropping, throwing and pushing a large object.

Each comes with the reason it is refused now ("" when it is offered), so the tablets can say why an object's
action is missing (:func:`refusals`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.flow.words import possessive
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.prompts import Option
from engine.state import FigureState, GameState

from . import chart, objects
from .condition import (
    DOWN,
    conscious,
)
from .movement_points import ChartChoice, mp, why_starred
from .spaces import beyond

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)


def throw_range(r: LostWorlds, thrower: FigureState, target: FigureState) -> int:
    """The longest throw: height + 2, +1 per level the target stands lower."""
    assert thrower.hex is not None and target.hex is not None
    t = chart.throwing()
    lower = max(0, r.board.level(thrower.hex) - r.board.level(target.hex))
    return r.height(thrower.id) + t["range_over_height"] + t["per_level_lower"] * lower


def _why_own_space(r: LostWorlds, fig: FigureState, what: str, at: Hex, action: str, left: int) -> str:
    """Why an action on the object ``what`` lying at ``at``, taken from the character's own space, is refused, or ""."""
    if at != fig.hex:
        return _("the {object} lies at {space}, not in {owner} space", object=what, space=r.label(at),
                 owner=possessive(r.name_of(fig.id)))
    return why_starred(r, fig, action, left)


def object_actions(r: LostWorlds, state: GameState, fig: FigureState, left: int) -> list[tuple[ChartChoice, str]]:
    """Every action on an object the character might take (pick up, drop, throw, examine, push), each with the
    reason it is refused now ("" when it is offered)."""
    here = fig.hex
    if here is None:
        return []
    out: list[tuple[ChartChoice, str]] = []
    name = r.name_of(fig.id)
    carried_large = objects.large_carried(r, fig)
    for token, at in sorted(state.tokens.items()):
        if at is None:
            continue
        what = objects.name(r, token)
        large = objects.is_large(r, token)
        cost = chart.cost("pick_up")
        text = _("pick up the {object} ({cost} MP, starred; large: carrying it costs 1 MP a turn, drop it to attack)",
                 object=what, cost=cost) if large else _("pick up the {object} ({cost} MP, starred)", object=what,
                                                          cost=cost)
        # Small things: the auto player and the tablets see the character's own space and the character.
        option = Option(f"pickup-{token}", text, None if large else here, None if large else fig.id)
        why = _why_own_space(r, fig, what, at, "pick_up", left)
        if not why and large and carried_large is not None:
            why = _("{name} already carries a large object, the {object}", name=name,
                    object=objects.name(r, carried_large))
        out.append((ChartChoice(option, "pick_up", cost, extra={"token": token}), why))
        o = objects.spec(r, token)
        if o is not None and o.examine:
            cost = chart.cost("examine")
            option = Option(f"examine-{token}", _("examine the {object} ({cost} MP, starred)", object=what, cost=cost),
                            here, fig.id)
            why = _why_own_space(r, fig, what, at, "examine", left)
            if not why and token in objects.examined(fig):
                why = _("{name} has examined the {object} already", name=name, object=what)
            out.append((ChartChoice(option, "examine", cost, extra={"token": token}), why))
        if large and at in r.board.neighbours(here):
            out.append(_push_object(r, state, fig, token, at, left))
    spots = [here, *r.spaces.steps(here)]  # its own space or any in its battle range
    for item in dict.fromkeys(fig.carrying):
        what = objects.name(r, item)
        for spot in spots:
            text = _("drop the {object} here (0 MP)", object=what) if spot == here \
                else _("drop the {object} at {space} (0 MP)", object=what, space=r.label(spot))
            why = ""
            if spot != here and objects.is_large(r, item) and objects.large_at(r, state, spot) is not None:
                why = _("{space} holds a large object already", space=r.label(spot))
            out.append((ChartChoice(Option(f"dropw-{item.replace(' ', '_')}-{r.label(spot)}", text),  # the figure stays
                                    "drop", 0, spot, extra={"weapon": item}), why))
    ranges = chart.effective_ranges()
    enemies = sorted((e for e in state.alive() if e.side != fig.side and conscious(e)), key=lambda e: e.id)
    for item in dict.fromkeys(fig.carrying):
        if not objects.throwable(r, item):
            continue
        for enemy in enemies:
            assert enemy.hex is not None
            dist = here.distance(enemy.hex)
            longest = throw_range(r, fig, enemy)
            far = dist > ranges[objects.kind(r, item)]
            said = dict(object=objects.name(r, item), name=r.name_of(enemy.id), spaces=dist, cost=chart.cost("throw"))
            text = _("throw the {object} at {name}, {spaces} spaces ({cost} MP, beyond its effective range: damage -1)",
                     **said) if far else _("throw the {object} at {name}, {spaces} spaces ({cost} MP)", **said)
            why = why_starred(r, fig, "throw", left)
            if not why and dist > longest:
                why = _("{target} is {spaces} spaces away; the longest throw is {longest} (height + 2, +1 per level "
                        "lower)", target=r.name_of(enemy.id), spaces=dist, longest=longest)
            elif not why and dist < 1:
                why = _("{target} stands in {owner} space", target=r.name_of(enemy.id), owner=possessive(name))
            out.append((ChartChoice(Option(f"throw-{item.replace(' ', '_')}-{enemy.id}", text, enemy.hex, enemy.id),
                                    "throw", chart.cost("throw"), target=enemy.id,
                                    extra={"weapon": item, "beyond": far}), why))
    return out


def _push_object(r: LostWorlds, state: GameState, fig: FigureState, token: str, at: Hex,
                 left: int) -> tuple[ChartChoice, str]:
    """Push a large object next to the character one space straight on (the rule document gives no rule: see
    :mod:`.objects`)."""
    assert fig.hex is not None
    to = beyond(fig.hex, at)
    what = objects.name(r, token)
    cost = chart.cost("push_object")
    option = Option(f"pushobj-{token}", _("push the {object} from {space} to {to} ({cost} MP)", object=what,
                                          space=r.label(at), to=r.label(to) if to in r.board else "-", cost=cost), to)
    why = why_starred(r, fig, "push_object", left)
    if not why and fig.flag(DOWN):
        why = _("{name} is down", name=r.name_of(fig.id))
    if not why and not r.spaces.open_side(fig.hex, at):
        why = _("a wall stands between {name} and the {object}", name=r.name_of(fig.id), object=what)
    if not why:
        if to not in r.board or not r.spaces.standable(to) or not r.spaces.open_side(at, to):
            why = _("nothing can stand beyond the {object}", object=what)
        elif r.board.level(to) > r.board.level(at):
            why = _("{to} is higher than the {object}: it is pushed along its level or off an edge, never up",
                    to=r.label(to), object=what)
        elif state.figures_at(to):
            why = _("a character is at {to}", to=r.label(to))
        elif objects.large_at(r, state, to) is not None:
            why = _("{to} holds a large object already", to=r.label(to))
    return ChartChoice(option, "push_object", cost, to, extra={"token": token}), why


def refusals(r: LostWorlds, state: GameState, fid: str) -> dict[str, str]:
    """Why each action on an object the character is not offered now is refused, by option id."""
    fig = state.figures[fid]
    return {c.option.id: why for c, why in object_actions(r, state, fig, mp(fig)) if why}


def drop_weapon(state: GameState, fig: FigureState, weapon: str | None = None, at: Hex | None = None) -> str | None:
    """Put a carried weapon or object (the first, unless named) on the character's space (or ``at``); returns it."""
    if not fig.carrying:
        return None
    w = weapon if weapon in fig.carrying else fig.carrying[0]
    assert w is not None
    objects.put_down(state, fig, w, at if at is not None else fig.hex)
    return w
