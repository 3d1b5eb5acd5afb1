"""What a Fantasy Battle scenario holds beyond the core: figure kinds and cards, tokens, victory types.

Declared here with the core's schema fields, so the scenario loader checks them like any key (line,
closest name, allowed values); the rules read them through the small accessors below.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from engine.board import Board, Terrain
from engine.board.hex import HexBoard
from engine.hexes import Hex
from engine.i18n import N_
from engine.rule_fields import FieldRef
from engine.rules.base import MapSymbol, VictoryType
from engine.rules.victory import LastSideStanding
from engine.scenario import FigureSpec, VictorySpec
from engine.scenario_schema import MARKER_ID_COUNT, MAX_MAP_HEXES, REQUIRED, Field, FieldError, text_field, texts_field


class FigureKind(Enum):
    FIGHTER = "fighter"  # melee only
    ARCHER = "archer"  # carries a ranged weapon
    WIZARD = "wizard"  # casts attack magic


# The kinds and actions as texts for people name them (looked up where shown, in this rule set's catalogue).
WORDS = (N_("fighter"), N_("archer"), N_("wizard"), N_("shoot"), N_("cast"))
# The special-ability cards the bundled scenarios deal (``abilities``; each counts a point, none changes a rule): a
# card's name is a word of this rule set, shown on the figure in the table's language like its kind.
ABILITY_CARDS = (N_("Brave"), N_("Veteran"), N_("Chieftain"))

FIGURE_FIELDS: tuple[Field, ...] = (
    text_field("kind", FigureKind.FIGHTER.value, choices=tuple(k.value for k in FigureKind),
               help="fighter (melee only), archer (ranged weapon) or wizard (attack magic)", convert=FigureKind),
    texts_field("abilities", [], 20, help="special-ability cards, 1 point each"),
    Field("can_carry", bool, True, help="may pick up tokens (treasure, prisoner)"),
)

MAP_SYMBOLS: Mapping[str, MapSymbol] = {
    "T": MapSymbol(Terrain.FLOOR, "treasure", "a floor hex with the treasure"),
    "P": MapSymbol(Terrain.FLOOR, "prisoner", "a floor hex with the prisoner"),
    "X": MapSymbol(Terrain.FLOOR, "exit", "a floor hex marked as an exit (only a victory's 'to' counts)"),
}

# The last side standing wins (the victory every rule set shares).
DESTROY = LastSideStanding("destroy", "every enemy figure is down", default_text=N_("destroy every enemy figure"))
VICTORY_TYPES: tuple[VictoryType, ...] = (
    VictoryType("bring", "bring a token to one of the hexes in 'to'", (
        text_field("token", REQUIRED, max_len=64, help="the token to carry: treasure or prisoner"),
        texts_field("to", REQUIRED, MAX_MAP_HEXES, ref="cell", min_len=1, help="the hexes to bring it to"),
    )),
    DESTROY,
    VictoryType("kill", "the named figures are down", (
        texts_field("figures", REQUIRED, MARKER_ID_COUNT, ref="figure", min_len=1, help="ids of the figures"),
    )),
)


kind_of = FieldRef("kind", FigureKind)  # a figure's kind
abilities = FieldRef[tuple[str, ...]]("abilities", tuple)  # a figure's special-ability cards
can_carry = FieldRef("can_carry", bool)  # whether a figure may pick up tokens
bring_token = FieldRef("token", str)  # the token a 'bring' victory carries
bring_to = FieldRef[tuple[Hex, ...]]("to", tuple)  # the hexes a 'bring' victory brings it to
kill_figures = FieldRef[tuple[str, ...]]("figures", tuple)  # the figure ids a 'kill' victory names


def check_figure(spec: FigureSpec, board: Board) -> None:
    """A figure starts on a hex it could enter: floor, not rock, water or a low obstacle."""
    if isinstance(board, HexBoard) and board.terrain(spec.start) is not Terrain.FLOOR:
        what = str(board.terrain(spec.start)).replace("low", "low obstacle")
        raise FieldError("at", f"figure {spec.name!r} starts at {board.label(spec.start)}, a {what} hex no figure "
                         "may stand on", "start it on a floor hex")


def check_victory(spec: VictorySpec, board: Board) -> None:
    """A 'bring' victory's token must lie on the map."""
    if spec.type == "bring" and isinstance(board, HexBoard) and not board.hexes_with_token(bring_token(spec)):
        raise FieldError("token", f"no hex of the map holds the token {bring_token(spec)!r}",
                         "draw it on the map (T treasure, P prisoner)")
