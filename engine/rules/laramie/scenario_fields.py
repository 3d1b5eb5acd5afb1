"""What a Laramie scenario holds beyond the core: each unit's values, the hero, its first facing; who must fall.

The original's unit card: weapon name, hit value, shots, damage, melee value, combat value, HP, state and
facing. Declared with the core's schema fields, so the loader checks them like its own keys; the rules read
them through the accessors below.
"""

from __future__ import annotations

from engine.board import Board
from engine.board.hex import HexBoard
from engine.i18n import N_, gettext_for
from engine.rule_fields import FieldRef
from engine.rules.base import OptionSpec, VictoryType
from engine.rules.victory import LastSideStanding
from engine.scenario import FigureSpec
from engine.scenario_schema import MARKER_ID_COUNT, REQUIRED, Field, FieldError, text_field, texts_field

from . import terrain
from .data import states

_ = gettext_for(__name__)

# The sheet's values as people read them (the terminal's character list).
FIELD_NAMES = (N_("hit"), N_("shots"), N_("damage"), N_("melee"), N_("combat"), N_("hp"), N_("facing"))
# The weapons the bundled scenarios arm their figures with (``weapon``: a name only; its values are the sheet's):
# rule-set words, shown in the table's language like the field names.
WEAPONS = (N_("revolver"), N_("shotgun"), N_("derringer"), N_("Colt Peacemaker"), N_("Winchester rifle"),
           N_("Schofield revolver"))

FIGURE_FIELDS: tuple[Field, ...] = (
    text_field("weapon", "revolver", max_len=40, help=N_("the weapon's name")),
    Field("hit", int, 6, low=0, high=10,
          help=N_("the weapon's hit value: a shot hits on 1d10 (modified) at or under it")),
    Field("shots", int, 1, low=1, high=3,
          help=N_("shots a turn (2: two shots, which may be one suppressive, one normal)")),
    Field("damage", int, 2, low=0, high=10, help=N_("the HP a hit takes off")),
    Field("melee", int, 3, low=0, high=10, help=N_("the weapon's melee value")),
    Field("combat", int, 5, low=0, high=10, help=N_("the combat value: order of play, rolls of morale and evasion")),
    Field("hp", int, 4, low=1, high=20, help=N_("hit points: at 0 the unit is killed in action")),
    Field("hero", bool, False, help=N_("a hero evades a hit on 1d10 at or under the combat value")),
    Field("facing", int, 0, low=0, high=5,
          help=N_("the direction it faces at the start (0..5, 0 the neighbour at +q)")),
    text_field("state", "normal", max_len=20, choices=tuple(states()), help=N_("its state at the start")),
)

weapon = FieldRef("weapon", str)
hit = FieldRef("hit", int)
shots = FieldRef("shots", int)
damage = FieldRef("damage", int)
melee = FieldRef("melee", int)
combat = FieldRef("combat", int)
hp = FieldRef("hp", int)
hero = FieldRef("hero", bool)
facing = FieldRef("facing", int)
start_state = FieldRef("state", str)

# The last side standing wins (the victory every rule set shares).
DESTROY = LastSideStanding("destroy", N_("every enemy unit is down"), default_text=N_("bring down every enemy unit"),
                            needs_survivor=False)
VICTORY_TYPES: tuple[VictoryType, ...] = (
    VictoryType("kill", N_("the named units are killed (or have surrendered)"), (
        texts_field("figures", REQUIRED, MARKER_ID_COUNT, ref="figure", min_len=1,
                    help=N_("ids of the units to bring down")),
    )),
    DESTROY,
)
kill_figures = FieldRef[tuple[str, ...]]("figures", tuple)

MORALE = "morale_broken"
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(MORALE, bool, False,
               N_("use the morale-broken state (the original's supplement: not in use at present)")),
)


def check_figure(spec: FigureSpec, board: Board) -> None:
    """A unit starts on a hex it could stand on."""
    if isinstance(board, HexBoard) and not terrain.standable_here(board, spec.start):
        raise FieldError("at", _("unit {name!r} starts at {hex}, where nobody can stand", name=spec.name,
                                 hex=board.label(spec.start)),
                         _("start it on a street, house, station or lumber-yard hex"))
