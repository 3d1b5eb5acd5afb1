"""What a Tenkey scenario holds beyond the core: the characters' values the GM enters, and options.

Declared with the core's schema fields, so the scenario loader checks them like its own keys; the
rules read them through the small typed accessors below, never as attributes of a figure.
"""

from __future__ import annotations

from engine.board import Board
from engine.board.zones.board import ZoneBoard
from engine.i18n import N_, gettext_for
from engine.rules.base import OptionSpec, VictoryType
from engine.rules.victory import LastSideStanding
from engine.scenario import FigureSpec, Scenario
from engine.scenario_schema import Field, FieldError, number_field, texts_field
from engine.texts import join_list

from . import deployment

_ = gettext_for(__name__)

MAX_METRES = 200
MAX_HP = 999

HAWK_EYE = "hawk_eye"
FOOTWORK = "footwork"
MAGIC_GUIDANCE = "magic_guidance"
PRECISE_SHOOTING = "precise_shooting"
SHADOW_RUN = "shadow_run"
# The sheet's values as people read them (the terminal's character list), and the skills' names as the
# tablets show them on a figure (the ids above are what a scenario writes).
FIELD_NAMES = (N_("movement"), N_("full movement"), N_("hp"), N_("shot range"), N_("area range"), N_("area radius"),
               N_("line range"), N_("war cry radius"))
ABILITY_NAMES = (N_("hawk_eye"), N_("footwork"), N_("magic_guidance"), N_("precise_shooting"), N_("shadow_run"))
ABILITIES: dict[str, str] = {
    HAWK_EYE: N_("Hawk Eye (鷹の目): shots and spells are never blocked by obstacles or enemies between"),
    FOOTWORK: N_("Footwork (足さばき): obstructs as if moving 10 m (one zone up or down, two sideways)"),
    MAGIC_GUIDANCE: N_("Magic Guidance (魔法誘導): no misfire shooting into a melee area"),
    PRECISE_SHOOTING: N_("Precise Shooting (精密射撃): no misfire shooting into a melee area"),
    SHADOW_RUN: N_("Shadow Run (影走り): moves through melee areas instead of stopping in them"),
}

FIGURE_FIELDS: tuple[Field, ...] = (
    number_field("movement", 10, 0, MAX_METRES, " m", help=N_("normal movement in metres")),
    number_field("full_movement", 0, 0, MAX_METRES, " m",
                 help=N_("full movement in metres (0: three times the movement, as the base game has it)")),
    Field("hp", int, 20, low=1, high=MAX_HP, help=N_("hit points")),
    Field("melee", bool, True, help=N_("attacks a character in its own zone")),
    number_field("shot_range", 0, 0, MAX_METRES, " m", help=N_("range of its shooting-shape attack (0: none)")),
    number_field("area_range", 0, 0, MAX_METRES, " m", help=N_("range of its origin-shape area spell (0: none)")),
    number_field("area_radius", 0, 0, 100, " m", help=N_("radius of that area spell")),
    number_field("line_range", 0, 0, MAX_METRES, " m", help=N_("range of its line-shape (貫通) spell (0: none)")),
    number_field("war_cry_radius", 0, 0, 100, " m",
                 help=N_("radius of its war cry (鼓咆): a war leader (軍師) calling to its side (0: none)")),
    texts_field("abilities", [], 10,
                help=N_("abilities: hawk_eye, footwork, magic_guidance, precise_shooting, shadow_run")),
)

VICTORY_TYPES: tuple[VictoryType, ...] = (
    LastSideStanding("destroy", N_("every character of the other sides is down"),
                     default_text=N_("defeat every enemy")),
)

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("allies", str, "", N_("the side that deploys in the bottom row (default: the first side)")),
    OptionSpec("deployment", str, "standard",
               N_("standard (allies in 1–3, enemies in 4–9) or free (the GM's own placement)")),
    OptionSpec("war_cry_everywhere", bool, False,
               N_("a war cry (鼓咆) reaches all nine zones whatever its radius (the original's recommendation)")),
)
DEPLOYMENTS = ("standard", "free")


def movement(spec: FigureSpec) -> float:
    return float(spec.fields["movement"])


def full_movement(spec: FigureSpec) -> float:
    full = float(spec.fields["full_movement"])
    return full if full > 0 else 3.0 * movement(spec)


def hp(spec: FigureSpec) -> int:
    return int(spec.fields["hp"])


def melee(spec: FigureSpec) -> bool:
    return bool(spec.fields["melee"])


def shot_range(spec: FigureSpec) -> float:
    return float(spec.fields["shot_range"])


def area_range(spec: FigureSpec) -> float:
    return float(spec.fields["area_range"])


def area_radius(spec: FigureSpec) -> float:
    return float(spec.fields["area_radius"])


def line_range(spec: FigureSpec) -> float:
    return float(spec.fields["line_range"])


def war_cry_radius(spec: FigureSpec) -> float:
    return float(spec.fields["war_cry_radius"])


def war_cry_everywhere(scenario: Scenario) -> bool:
    return bool(scenario.options.get("war_cry_everywhere", False))


def abilities(spec: FigureSpec) -> frozenset[str]:
    return frozenset(spec.fields["abilities"])


def has(spec: FigureSpec, ability: str) -> bool:
    return ability in abilities(spec)


def allies(scenario: Scenario) -> str:
    """The side that deploys in the bottom row."""
    named = str(scenario.options.get("allies") or "")
    return named or scenario.sides[0].id


def free_deployment(scenario: Scenario) -> bool:
    return bool(scenario.options.get("deployment", "standard") == "free")


def check_figure(spec: FigureSpec, board: Board) -> None:
    if isinstance(board, ZoneBoard) and spec.start in board and not board.terrain_kind(spec.start).standable:
        raise FieldError("at", _("{name!r} starts in {zone}, whose terrain {terrain} nobody stands on",
                                 name=spec.name, zone=board.label(spec.start), terrain=str(board.terrain(spec.start))),
                         _("start it in another zone"))
    for name in spec.fields["abilities"]:
        if name not in ABILITIES:
            raise FieldError("abilities", _("{name!r} has the ability {ability!r}, which Tenkey battle does not know",
                                            name=spec.name, ability=name),
                             _("use some of: {abilities}", abilities=join_list(ABILITIES)))
    if float(spec.fields["area_range"]) > 0 and float(spec.fields["area_radius"]) <= 0:
        raise FieldError("area_radius", _("{name!r} has an area spell with no radius", name=spec.name),
                         _("give area_radius in metres, or set area_range = 0"))


def check_scenario(scenario: Scenario) -> None:
    """The options name a side and a deployment; figures start in their side's zones unless deployment is free."""
    sides = [s.id for s in scenario.sides]
    named = str(scenario.options.get("allies") or "")
    if named and named not in sides:
        raise ValueError(_("option allies = {named!r} names no side. Fix: use one of {sides}", named=named,
                           sides=join_list(sides)))
    how = scenario.options.get("deployment", "standard")
    if how not in DEPLOYMENTS:
        raise ValueError(_("option deployment = {how!r} is not known. Fix: use one of {choices}", how=how,
                           choices=join_list(DEPLOYMENTS)))
    board = scenario.board
    if free_deployment(scenario) or not isinstance(board, ZoneBoard):
        return
    party = allies(scenario)
    for f in scenario.figures:
        allowed = deployment.start_zones(board, f.side == party)
        if f.start not in allowed:
            zones = join_list(sorted(board.label(z) for z in allowed))
            text = (_("{name!r} starts in {zone}, but its side starts in the bottom row ({zones}). Fix: start it "
                      "there, or set the option deployment = \"free\" for the GM's own placement",
                      name=f.name, zone=board.label(f.start), zones=zones) if f.side == party
                    else _("{name!r} starts in {zone}, but its side starts in the rows above the bottom one ({zones}). "
                           "Fix: start it there, or set the option deployment = \"free\" for the GM's own placement",
                           name=f.name, zone=board.label(f.start), zones=zones))
            raise ValueError(text)
