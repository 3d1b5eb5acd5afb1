"""The rule data of ``tables.toml``: the range row of the fire table, the target modifiers, melee numbers, the states.

Read once with :func:`engine.rules.data.load_rule_data` and held to the declarations below, so a bad entry
names the file, the line and the fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.rules.data import load_rule_data
from engine.scenario_schema import Field, Table, text_field, texts_field

TABLES: dict[str, Table] = {
    "range": Table("range", (
        Field("low", int, low=0, high=99, help="nearest range of the row, in hexes"),
        Field("high", int, low=0, high=99, help="furthest range of the row, in hexes"),
        Field("modifier", int, low=-9, high=9, help="added to the die"),
    ), many=True),
    "target": Table("target", tuple(Field(n, int, low=-9, high=9, help="added to the die") for n in (
        "obstacle", "cover", "lumber_yard", "not_facing"))),
    "melee": Table("melee", (
        Field("kills_at", int, low=1, high=10, help="a modified die of this or less kills"),
        Field("penalty", int, low=0, high=9, help="added to the die of a prone or suppressed fighter"),
    )),
    "states": Table("states", (
        text_field("name", max_len=20),
        text_field("label", max_len=30),
        text_field("label_ja", "", max_len=30, help="the label in Japanese, as the original writes the state"),
        text_field("badge", max_len=24),
        text_field("badge_ja", "", max_len=24, help="the badge in Japanese"),
        Field("hit", int, low=-9, high=9, help="modifier to the hit value"),
        Field("open_only", bool, help="fires only from open ground"),
        Field("fire", bool, help="may fire"),
        Field("prone", bool, help="counts as prone"),
        Field("melee_penalty", bool, help="fights a melee at the penalty"),
        Field("move", int, low=0, high=9, help="hexes it may move"),
        texts_field("choices", max_len=8, help="states it may choose in the state-update phase"),
        text_field("becomes", max_len=20, help="the state it becomes by itself in the state-update phase"),
    ), many=True),
}


@dataclass(frozen=True)
class StateRules:
    """What one unit state allows, as the table gives it."""

    name: str
    label: str
    label_ja: str
    badge: str
    badge_ja: str
    hit: int
    open_only: bool
    fire: bool
    prone: bool
    melee_penalty: bool
    move: int
    choices: tuple[str, ...]
    becomes: str


@cache
def _data() -> dict[str, object]:
    return load_rule_data(__package__ or "engine.rules.laramie", "tables.toml", TABLES)


def range_rows() -> tuple[tuple[int, int, int], ...]:
    """(low, high, modifier) of each range row, nearest first."""
    rows = _data()["range"]
    assert isinstance(rows, tuple)
    return tuple((r["low"], r["high"], r["modifier"]) for r in rows)


def target_modifier(name: str) -> int:
    """A target modifier of normal fire: obstacle, cover, lumber_yard or not_facing."""
    row = _data()["target"]
    assert isinstance(row, dict)
    return int(row[name])


def melee_number(name: str) -> int:
    """kills_at or penalty of the melee rule."""
    row = _data()["melee"]
    assert isinstance(row, dict)
    return int(row[name])


@cache
def states() -> dict[str, StateRules]:
    """Every unit state by name, in the table's order."""
    rows = _data()["states"]
    assert isinstance(rows, tuple)
    return {r["name"]: StateRules(**{**r, "choices": tuple(r["choices"])}) for r in rows}
