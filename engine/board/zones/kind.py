"""The zone board kind: square zones in rows and columns, such as the Tenkey battle's keypad mat
(``[map] kind = "zones"``). It reads the zones' drawing, size and terrain and calls its cells zones.
Registered as a built-in kind (:mod:`engine.board.kinds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.board import Board, TerrainKind
from engine.board.kinds import BoardKind, MapReading, register_board_kind
from engine.board.zones.board import ZoneBoard, zones_from_drawing
from engine.hexes import Hex, Orientation
from engine.i18n import gettext_for, ngettext_for
from engine.layout import Layout
from engine.scenario_map import did_you_mean
from engine.scenario_schema import Field, number_field, text_field
from engine.texts import join_list

_ = gettext_for(__name__)
_n = ngettext_for(__name__)


@register_board_kind
class ZoneKind(BoardKind):
    """Zone boards: a printed mat of labelled square zones with its own corner anchor tags."""

    name = "zones"
    english = ("zone", "zones")
    map_fields = (
        text_field("zones", max_len=10_000),
        number_field("zone_mm", 60.0, 10.0, 1000.0, " mm"),
        Field("terrain", dict, {}),  # a zone board's terrain: zone label → a terrain kind's name
    )

    def noun(self, count: int = 2) -> str:
        return _("zone") if count == 1 else _("zones")

    def cells(self, count: int) -> str:
        return _n("{n} zone", "{n} zones", count)

    def read_map(self, reading: MapReading, m: Mapping[str, Any]) -> tuple[Board, Layout]:
        return ZoneMapReader(reading).read(m)


class ZoneMapReader:
    """Reads a zone ``[map]`` with the scenario loader's reading."""

    def __init__(self, reading: MapReading) -> None:
        self.get = reading.get
        self.fail = reading.fail
        self._title = reading.title
        self._terrain_kinds = reading.terrain_kinds

    def read(self, m: Mapping[str, Any]) -> tuple[ZoneBoard, Layout]:
        return self._zone_map(m)

    def _zone_map(self, m: Mapping[str, Any]) -> tuple[ZoneBoard, Layout]:
        drawing = self.get(m, "map", None, "zones")
        if drawing is None:
            raise self.fail(_("[map] has no 'zones'"),
                            _("add 'zones = \"\"\"7 8 9 / 4 5 6 / 1 2 3\"\"\"' (one row a line)"), "map")
        zone_mm = float(self.get(m, "map", None, "zone_mm"))
        origin = self.get(m, "map", None, "origin_mm")
        labels = zones_from_drawing(drawing)
        levels_text = self.get(m, "map", None, "levels")
        levels: dict[Hex, int] = {}
        if levels_text is not None:
            for cell, word in zones_from_drawing(levels_text).items():
                if not word.isdigit() or cell not in labels:
                    raise self.fail(_("level {word!r} is not a digit on a zone", word=word),
                                    _("draw one digit per zone, like the zones"), "map", None, "levels")
                levels[cell] = int(word)
        kinds = self._terrain_kinds()
        terrains = self._zone_terrain(m, labels, kinds)
        try:
            board = ZoneBoard(labels, zone_mm, (float(origin[0]), float(origin[1])), levels, terrains, kinds)
        except ValueError as exc:
            raise self.fail(_("the zones cannot be read: {error}", error=exc), _("draw one label per zone"), "map",
                            None, "zones") from None
        # The zone board is registered and read through the board; the hex layout stays for hex-only callers.
        layout = Layout.from_flat_width(Orientation.FLAT, zone_mm, (float(origin[0]), float(origin[1])))
        return board, layout


    def _zone_terrain(self, m: Mapping[str, Any], labels: Mapping[Hex, str],
                      kinds: Mapping[str, TerrainKind]) -> dict[Hex, str]:
        """The zones' terrain ([map] terrain = { "5" = "obstacle" }): zone label → a terrain kind's name."""
        by_label = {label: cell for cell, label in labels.items()}
        out: dict[Hex, str] = {}
        for label, name in self.get(m, "map", None, "terrain").items():
            if label not in by_label:
                raise self.fail(_("terrain names zone {label!r}, which is not a zone of the [map]", label=label),
                                _("key terrain by a zone label: one of {known}", known=join_list(sorted(by_label))),
                                "map", None, "terrain")
            if not isinstance(name, str) or name not in kinds:
                raise self.fail(_("zone {label!r} has terrain {name!r}, which {title} does not have", label=label,
                                  name=name, title=self._title()),
                                _("{hint}use one of: {known}", hint=did_you_mean(str(name), kinds),
                                  known=join_list(kinds)), "map", None, "terrain")
            out[by_label[label]] = name
        return out

