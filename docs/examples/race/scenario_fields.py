"""What a Race scenario holds beyond the core: a runner's stride, the exits, the ``X`` map symbol.

Declared with the core's schema fields, so the scenario loader checks them like its own keys (type,
range, a cell on the map, the line at fault); the rules read them through the accessors below.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.board import Board, Cell, Terrain
from engine.i18n import N_, gettext_for
from engine.rule_fields import FieldRef
from engine.rules.base import MapSymbol, VictoryType
from engine.scenario import FigureSpec, Scenario, VictorySpec
from engine.scenario_schema import MAX_MAP_HEXES, Field, FieldError, texts_field
from engine.texts import cell_noun, terrain_word

_ = gettext_for(__name__)

MAX_STRIDE = 3

FIGURE_FIELDS: tuple[Field, ...] = (
    Field("stride", int, 0, low=0, high=MAX_STRIDE, help=N_("hexes the runner adds to every roll")),
)

EXIT = "exit"
MAP_SYMBOLS: Mapping[str, MapSymbol] = {
    "X": MapSymbol(Terrain.FLOOR, EXIT, N_("a floor hex marked as an exit")),
}

VICTORY_TYPES: tuple[VictoryType, ...] = (
    VictoryType(
        "reach",
        N_("a runner of the side ends its run on one of the exits"),
        (texts_field("exits", [], MAX_MAP_HEXES, ref="cell", help=N_("the hexes to reach; none: every X of the map")),),
        default_text=N_("a runner reaches an exit"),
    ),
)


stride = FieldRef("stride", int)  # hexes a runner adds to every roll
named_exits = FieldRef[tuple[Cell, ...]]("exits", tuple)  # the exits a 'reach' victory names (may be none)


def exits(victory: VictorySpec, board: Board) -> tuple[Cell, ...]:
    """The hexes a 'reach' victory names, or every X of the map when it names none."""
    named = named_exits(victory)
    if named:
        return named
    return tuple(board.cells_with_token(EXIT))


def check_figure(spec: FigureSpec, board: Board) -> None:
    """A runner starts on floor."""
    if board.terrain(spec.start) != Terrain.FLOOR:
        one = cell_noun(board.kind, 1)
        raise FieldError("at", _("runner {name!r} starts at {cell}, a {terrain} {one}", name=spec.name,
                                 cell=board.label(spec.start), terrain=terrain_word(board.terrain(spec.start)),
                                 one=one),
                         _("start it on a floor {one} (. or X)", one=one))


def check_victory(spec: VictorySpec, board: Board) -> None:
    """Every exit is a floor hex a runner can stand on, and there is at least one."""
    if not exits(spec, board):
        raise FieldError("exits", _("the victory names no exits and the map has no X"),
                         _("list the exits (exits = ['I3']) or draw an X on the map"))
    for h in named_exits(spec):
        if board.terrain(h) != Terrain.FLOOR:
            one = cell_noun(board.kind, 1)
            raise FieldError("exits", _("the exit {cell} is a {terrain} {one} no runner can stand on",
                                        cell=board.label(h), terrain=terrain_word(board.terrain(h)), one=one),
                             _("name a floor {one}", one=one))


def check_scenario(scenario: Scenario) -> None:
    """Nobody starts on their own exit (the race would be won before it began)."""
    for v in scenario.victory:
        goal = set(exits(v, scenario.board))
        if not goal:
            raise ValueError(_("side {side!r} has no exit to reach. Fix: draw an X on the map or add a "
                               "[[victory]] with exits", side=v.side))
        for f in scenario.figures:
            if f.side == v.side and f.start in goal:
                raise ValueError(_("runner {name!r} starts on its own exit {cell}. Fix: start it elsewhere",
                                   name=f.name, cell=scenario.label(f.start)))
