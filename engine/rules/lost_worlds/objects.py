"""Objects on the board: what a scenario sets down, and the movement chart's actions on them.

The rule document's "objects" are movable things lying on a space: boxes, bags, barrels (obstacles,
optional rules). A scenario lists them as ``[[objects]]``: small ones are picked up (*1), dropped (0) on
any space of the battle range and thrown (*2, see :mod:`.throwing`); a large one is picked up (one per
character), carried (1 per turn: the first step of a turn costs 1 more; drop it to attack) or pushed (2:
the rule document names no rule for it, so a push moves it one space straight away from the pusher, to a
space on its level or lower that holds no character and no other large object). An object with a text is
examined (*2) from its own space: the text is read out, and a hidden object it ``reveals`` appears there.

Every object is a token of the game state (``state.tokens``: its space, None while carried or in flight);
a carried one is listed in the character's ``carrying`` by its id, beside the weapons of its sheet.
A thrown object (or weapon) that nobody picked up in the combat phase lands on the space it was thrown at
at the start of the next movement phase (the rule document's words); until then it is in flight.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.events import Event
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.scenario import Scenario
from engine.scenario_schema import REQUIRED, Field, Table, localised_field, text_field
from engine.state import FigureState, GameState

from . import chart
from .condition import CARRY_PAID

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)

SMALL, LARGE = "small", "large"
THROWN = "thrown"  # on the thrower: {token: [q, r, round]} for each object in flight
EXAMINED = "examined"  # on a character: the objects it has examined
MAX_OBJECTS = 200

TABLE = Table("objects", (
    text_field("id", REQUIRED, max_len=40, help="the object's id: letters, digits, - and _"),
    localised_field("name", REQUIRED, max_len=60, help="what the players call it (\"barrel\", { en = …, ja = … })"),
    text_field("at", REQUIRED, max_len=8, ref="cell", help="the space it lies on"),
    text_field("size", SMALL, max_len=8, choices=(SMALL, LARGE),
               help="small: picked up and thrown; large: carried (one per character) or pushed"),
    text_field("weapon", "rock", max_len=20, choices=tuple(sorted(chart.effective_ranges())),
               help="a small object is thrown as this weapon (its effective range)"),
    localised_field("examine", "", max_len=400, help="what examining it reveals (empty: nothing to examine)"),
    text_field("reveals", "", max_len=40, help="a hidden object that appears on its space when it is examined"),
    Field("hidden", bool, False, help="not on the board until an examined object reveals it"),
), many=True, max_rows=MAX_OBJECTS)


@dataclass(frozen=True)
class ObjectSpec:
    id: str
    name: str
    at: Hex
    size: str
    weapon: str
    examine: str
    reveals: str
    hidden: bool

    @property
    def large(self) -> bool:
        return self.size == LARGE


def read(scenario: Scenario) -> dict[str, ObjectSpec]:
    """The scenario's objects by id."""
    rows: tuple[dict[str, Any], ...] = tuple(scenario.tables.get("objects", ()))
    return {r["id"]: ObjectSpec(r["id"], str(r["name"]), r["at"], r["size"], r["weapon"], str(r["examine"] or ""),
                                r["reveals"], r["hidden"]) for r in rows}


def check(scenario: Scenario) -> None:
    """Ids are unique tokens and no sheet weapon's name; a revealed object exists and is hidden; a hidden one is small.
    (That an object lies on the map is the loader's check of its ``at`` cell.)"""
    specs = read(scenario)
    ids = [str(r["id"]) for r in scenario.tables.get("objects", ())]
    for oid in ids:
        if ids.count(oid) > 1:
            raise ValueError(_("the object {id!r} is listed twice. Fix: give each object its own id", id=oid))
        if not all(ch.isalnum() or ch in "-_" for ch in oid):
            raise ValueError(_("the object id {id!r} may hold only letters, digits, - and _. Fix: rename it", id=oid))
    carried = {w.lower() for f in scenario.figures for w in f.fields.get("weapons", ())}
    for o in specs.values():
        if o.id.lower() in carried:
            raise ValueError(_("the object id {id!r} is also a weapon of a character sheet. Fix: rename the object",
                               id=o.id))
        if o.reveals and (o.reveals not in specs or not specs[o.reveals].hidden):
            raise ValueError(_("the object {id!r} reveals {other!r}, which is not a hidden object. Fix: name a "
                               "[[objects]] id with hidden = true", id=o.id, other=o.reveals))
        if o.hidden and o.large:
            raise ValueError(_("the hidden object {id!r} is large. Fix: only small objects can be hidden", id=o.id))


def first_tokens(specs: dict[str, ObjectSpec]) -> dict[str, Hex | None]:
    """Where the objects lie when the game starts (hidden ones are not on the board yet)."""
    return {o.id: o.at for o in specs.values() if not o.hidden}


# -- what an item is ------------------------------------------------------------------------------------
def weapon_of(token: str) -> str:
    """A dropped sheet weapon's token is named ``weapon#n``."""
    return token.split("#", 1)[0]


def spec(r: LostWorlds, item: str) -> ObjectSpec | None:
    return r.objects.get(item)


def name(r: LostWorlds, item: str) -> str:
    """An object's name, or a weapon's (a sheet weapon, or the token of a dropped one)."""
    o = spec(r, item)
    return o.name if o is not None else chart.weapon_name(weapon_of(item))


def kind(r: LostWorlds, item: str) -> str:
    """The weapon an item is thrown as (its effective range), lower case."""
    o = spec(r, item)
    return (o.weapon if o is not None else weapon_of(item)).lower()


def is_large(r: LostWorlds, item: str) -> bool:
    o = spec(r, item)
    return o is not None and o.large


def throwable(r: LostWorlds, item: str) -> bool:
    return not is_large(r, item) and kind(r, item) in chart.effective_ranges()


def large_carried(r: LostWorlds, fig: FigureState) -> str | None:
    """The large object a character carries, if any."""
    return next((i for i in fig.carrying if is_large(r, i)), None)


def carry_due(r: LostWorlds, fig: FigureState) -> int:
    """What carrying a large object still costs this turn (charged on the first step)."""
    return chart.cost("carry_large") if large_carried(r, fig) is not None and not fig.flag(CARRY_PAID) else 0


def large_at(r: LostWorlds, state: GameState, h: Hex) -> str | None:
    return next((t for t, at in sorted(state.tokens.items()) if at == h and is_large(r, t)), None)


# -- picking up, dropping, throwing, landing ---------------------------------------------------------------
def pick_up(state: GameState, fig: FigureState, token: str) -> str:
    """Take a token from the board; returns what the character now carries (a weapon's name, an object's id)."""
    if "#" in token:  # a dropped sheet weapon: the character carries the weapon again
        del state.tokens[token]
        item = weapon_of(token)
    else:
        state.tokens[token] = None
        item = token
    fig.carrying.append(item)
    return item


def put_down(state: GameState, fig: FigureState, item: str, at: Hex | None) -> str:
    """A carried item leaves the character onto ``at`` (None: in flight); returns its token."""
    fig.carrying.remove(item)
    if item in state.tokens:  # an object: its own token
        state.tokens[item] = at
        return item
    n = 1
    while f"{item}#{n}" in state.tokens:
        n += 1
    token = f"{item}#{n}"
    state.tokens[token] = at
    return token


def throw(state: GameState, fig: FigureState, item: str, at: Hex) -> str:
    """The item flies at ``at``: in flight until the next movement phase (see :func:`land`)."""
    token = put_down(state, fig, item, None)
    flying = dict(fig.values.get(THROWN, {}))
    flying[token] = [at.q, at.r, state.round]
    fig.values[THROWN] = flying
    return token


def land(r: LostWorlds, state: GameState, events: list[Event]) -> None:
    """The next movement phase begins: what was thrown and not picked up lies on the space it was thrown at."""
    for fig in state.figures.values():
        flying = fig.values.get(THROWN)
        if not flying:
            continue
        for token, (q, rr, _round) in sorted(flying.items()):
            at = Hex(q, rr)
            state.tokens[token] = at
            events.append(Event("landed", _("The {object} thrown by {name} lies at {space} now.",
                                            object=name(r, token), name=r.name_of(fig.id), space=r.label(at)),
                                {"token": token, "at": [q, rr]}))
        fig.mark(THROWN, None)


def examined(fig: FigureState) -> list[str]:
    return list(fig.values.get(EXAMINED, []))


def examine(r: LostWorlds, state: GameState, fig: FigureState, token: str) -> list[str]:
    """The character examines an object: it is marked examined; a hidden object it reveals appears. Returns the
    ids of the objects revealed."""
    fig.values[EXAMINED] = [*examined(fig), token]
    o = r.objects[token]
    shown = []
    if o.reveals and o.reveals not in state.tokens:
        state.tokens[o.reveals] = state.tokens.get(token)
        shown.append(o.reveals)
    return shown
