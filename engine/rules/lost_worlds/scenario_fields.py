"""What a Lost Worlds scenario holds beyond the core: the character sheets, the victory types, the options.

A character sheet gives the height (movement points, battle range, effective height, throwing range),
hit points, abilities (``undead``, ``regeneration``, ``mana recovery``), weapons (those named in the
effective-range table can be thrown) and the ranged modifier of its book. Each victory may name the
victory points it is worth; they become experience for the winning side's survivors.
"""

from __future__ import annotations

from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.rule_fields import FieldRef
from engine.rules.base import OptionSpec, VictoryType
from engine.rules.victory import LastSideStanding
from engine.scenario import FigureSpec
from engine.scenario_schema import MARKER_ID_COUNT, MAX_MAP_HEXES, Field, FieldError, texts_field

_ = gettext_for(__name__)

MAX_HEIGHT = 12
UNDEAD, REGENERATION, MANA_RECOVERY, WRAITH = "undead", "regeneration", "mana recovery", "wraith"
FIELD_NAMES = (N_("height"), N_("hp"), N_("ranged modifier"), N_("mana"), N_("regenerates"))  # as people read them
ABILITY_NAMES = (N_("undead"), N_("regeneration"), N_("mana recovery"), N_("wraith"))  # as the tablets show them

FIGURE_FIELDS: tuple[Field, ...] = (
    Field("height", int, 4, low=1, high=MAX_HEIGHT, help="the character sheet's height: movement points and reach"),
    Field("hp", int, 12, low=1, high=99, help="hit points when unhurt (unconscious at 0 to -4, dead below)"),
    texts_field("abilities", [], 20, help="undead (never recovers), regeneration, mana recovery, wraith (immaterial "
                "while regenerating), or the book's own"),
    texts_field("weapons", [], 10, help="carried weapons; club, dagger, hand axe, rock and spear can be thrown"),
    Field("ranged_modifier", int, 0, low=-9, high=9, help="the book's ranged modifier, added to thrown damage"),
    Field("mana", int, 0, low=0, high=99, help="mana points (for mana recovery)"),
    Field("regenerates", int, 1, low=0, high=20, help="hit points (or mana) regained per movement point spent"),
)

_POINTS = Field("points", int, 0, low=0, high=1000, help="victory points: shared as experience by the survivors")
# The last side standing wins (the victory every rule set shares).
DESTROY = LastSideStanding("destroy", N_("every enemy character is dead or unconscious"), (_POINTS,),
                            default_text=N_("every enemy is out of the fight"), needs_survivor=False)
VICTORY_TYPES: tuple[VictoryType, ...] = (
    DESTROY,
    VictoryType("kill", N_("the named characters are dead or unconscious"),
                (_POINTS, texts_field("figures", [], MARKER_ID_COUNT, ref="figure", help="the characters")),
                default_text=N_("the named enemies are out of the fight")),
    VictoryType("reach", N_("a conscious character of the side stands on one of the cells at the victory check"),
                (_POINTS, texts_field("cells", [], MAX_MAP_HEXES, ref="cell", help="the cells to reach")),
                default_text=N_("a character reaches the goal")),
)

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("obstacle_restrictions", bool, False,
               N_("the optional obstacle rules: no side swing, dodge or jump back where obstacles crowd a character")),
    OptionSpec("regeneration", bool, False, N_("characters with regeneration may regenerate during movement")),
    OptionSpec("mana_recovery", bool, False,
               N_("wizards with mana recovery may recover mana during movement (2 a turn)")),
)

height = FieldRef("height", int)  # the character sheet's height
hit_points = FieldRef("hp", int)  # hit points when unhurt
abilities = FieldRef[tuple[str, ...]]("abilities", tuple)
weapons = FieldRef[tuple[str, ...]]("weapons", tuple)
ranged_modifier = FieldRef("ranged_modifier", int)
mana = FieldRef("mana", int)
regenerates = FieldRef("regenerates", int)  # per movement point spent regenerating
victory_points = FieldRef("points", int)
named_figures = FieldRef[tuple[str, ...]]("figures", tuple)
named_cells = FieldRef[tuple[Hex, ...]]("cells", tuple)


def has(spec: FigureSpec, ability: str) -> bool:
    """Whether the character sheet lists an ability (case does not matter)."""
    return ability in (a.lower() for a in abilities(spec))


def check_figure(spec: FigureSpec) -> None:
    """Weapons are named once each."""
    ws = [w.lower() for w in weapons(spec)]
    if len(set(ws)) != len(ws):
        raise FieldError("weapons", _("{name!r} lists a weapon twice", name=spec.name), _("name each weapon once"))
