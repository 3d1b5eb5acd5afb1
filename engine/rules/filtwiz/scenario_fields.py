"""What a Filtwiz scenario holds beyond the core: a character's movement, attack, flight, party and sheet values.

Declared with the core's schema fields, so the scenario loader checks them like its own keys; the
rules read them through the small typed accessors below, never as attributes of a figure.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum

from engine.board import Board
from engine.board.hex import HexBoard
from engine.i18n import N_, gettext_for
from engine.rules.base import VictoryType
from engine.rules.victory import LastSideStanding
from engine.scenario import FigureSpec, Scenario
from engine.scenario_schema import Field, FieldError, localised_field, text_field, texts_field

from . import terrain

_ = gettext_for(__name__)

PARTY_LIMIT = 6  # the original: a party of at most six, more with the GM's consent
MAX_RANGE = 99


class Flight(Enum):
    NONE = "none"
    FLYING = "flying"  # flies while it moves (a skill's 飛行状態)
    FULL = "full"  # 【完全飛行移動】: always up in the air


class Shape(Enum):
    """The shape of a character's attack skill."""

    SINGLE = "single"  # one character within range
    AREA = "area"  # every enemy within `attack_size` hexes of a chosen hex within range
    FAN = "fan"  # a fan of `attack_range` hexes from the user
    SELF = "self"  # every enemy within `attack_size` hexes of the user (reaches unseen targets)


# Abilities that spare a character the underwater penalties (the original names ニンジャ【ミズグモ】 and the
# lizards' 特異点「水中行動」).
WATER_ABILITIES: frozenset[str] = frozenset({"water_action", "mizugumo", "水中行動", "ミズグモ"})
ABILITY_NAMES = (N_("water_action"), N_("mizugumo"))  # as the tablets show them on a figure
# The sheet's values and kinds as people read them (the terminal's character list).
FIELD_NAMES = (N_("movement"), N_("hp"), N_("armour"), N_("damage"), N_("attack range"), N_("attack size"),
               N_("flying"), N_("full"), N_("single"), N_("area"), N_("fan"), N_("self"))

FIGURE_FIELDS: tuple[Field, ...] = (
    localised_field("party", "", max_len=40, help="the party the character belongs to (empty: none), as text or "
                    "{ en = …, ja = … }; areas of a party member's skills spare the party"),
    Field("pc", bool, False, help="a player character: mass combat never takes it below 0 HP"),
    Field("movement", int, 5, low=0, high=50, help="〔移動〕: hexes it may move in a turn"),
    Field("hp", int, 20, low=1, high=9999, help="〔HP〕 at the start, for the mass-combat calculator"),
    Field("armour", int, 0, low=0, high=999, help="防護点 (armour points), for the mass-combat calculator"),
    Field("damage", int, 10, low=0, high=9999, help="致傷力 of its attack, for the mass-combat calculator"),
    text_field("flight", Flight.NONE.value, choices=tuple(f.value for f in Flight),
               help="none, flying (flies while moving) or full (完全飛行移動: always airborne)", convert=Flight),
    text_field("attack", Shape.SINGLE.value, choices=tuple(s.value for s in Shape),
               help="its attack skill's shape: single, area (around a chosen hex), fan, self (around itself)",
               convert=Shape),
    Field("attack_range", int, 1, low=0, high=MAX_RANGE, help="range of its attack in hexes (1: neighbours only)"),
    Field("attack_size", int, 0, low=0, high=MAX_RANGE, help="radius in hexes of an area or self attack"),
    Field("multi_hit", bool, False, help="a multi-hit attack (多段攻撃): mass combat counts its damage twice"),
    texts_field("abilities", [], 20, help="abilities that change the board rules: water_action (水中行動, "
                "ミズグモ) spares the underwater penalties"),
)

# The last side standing wins (the victory every rule set shares).
DEFEAT = LastSideStanding("defeat", N_("every enemy character is out (★気絶)"), default_text=N_("defeat every enemy"))
VICTORY_TYPES: tuple[VictoryType, ...] = (
    DEFEAT,
)


def party(spec: FigureSpec) -> str:
    return str(spec.fields["party"])


def is_pc(spec: FigureSpec) -> bool:
    return bool(spec.fields["pc"])


def movement(spec: FigureSpec) -> int:
    return int(spec.fields["movement"])


def hp(spec: FigureSpec) -> int:
    return int(spec.fields["hp"])


def armour(spec: FigureSpec) -> int:
    return int(spec.fields["armour"])


def damage(spec: FigureSpec) -> int:
    return int(spec.fields["damage"])


def flight(spec: FigureSpec) -> Flight:
    value: Flight = spec.fields["flight"]
    return value


def shape(spec: FigureSpec) -> Shape:
    value: Shape = spec.fields["attack"]
    return value


def attack_range(spec: FigureSpec) -> int:
    return int(spec.fields["attack_range"])


def attack_size(spec: FigureSpec) -> int:
    return int(spec.fields["attack_size"])


def multi_hit(spec: FigureSpec) -> bool:
    return bool(spec.fields["multi_hit"])


def abilities(spec: FigureSpec) -> tuple[str, ...]:
    return tuple(spec.fields["abilities"])


def water_exempt(spec: FigureSpec) -> bool:
    """Whether an ability spares the character the underwater penalties."""
    return any(a in WATER_ABILITIES for a in abilities(spec))


def check_figure(spec: FigureSpec, board: Board) -> None:
    """A character starts on a hex it may stand on."""
    if isinstance(board, HexBoard) and not terrain.standable(board, spec.start):
        raise FieldError("at", _("{name!r} starts at {hex}, a {terrain} hex nobody stands on", name=spec.name,
                                 hex=board.label(spec.start), terrain=str(board.terrain(spec.start))),
                         _("start it on floor, underwater or indoor hexes"))


def check_scenario(scenario: Scenario, limit: int) -> None:
    """A party keeps to one side and to the party limit (more only when the GM allows: the option)."""
    sides: dict[str, set[str]] = {}
    for f in scenario.figures:
        if party(f):
            sides.setdefault(party(f), set()).add(f.side)
    for name, held in sorted(sides.items()):
        if len(held) > 1:
            raise ValueError(_("party {name!r} has characters of sides {sides}. Fix: a party is on one side; give "
                               "the others another party", name=name, sides=", ".join(sorted(held))))
    for name, n in sorted(Counter(party(f) for f in scenario.figures if party(f)).items()):
        if n > limit:
            raise ValueError(_("party {name!r} has {n} members, more than {limit}. Fix: split it, or let the GM "
                               "allow more with [options] party_limit = {n}", name=name, n=n, limit=limit))
