"""The movement chart and the rule document's tables, read from ``chart.toml`` beside this module.

Every number the rules use — an action's cost, whether it is starred, the run's bonus, the rows of the
forced drop, jump, fall and recovery tables, the weapons' effective ranges, the combat-start pages in
priority order — comes from that file through the typed views below. Every text a player reads has its
Japanese twin beside it (``name_ja``, ``note_ja``, ``text_ja``, ``weapon_ja``); the views give the current language's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.i18n import SOURCE_LANGUAGE, current_language
from engine.rules.data import load_rule_data
from engine.scenario_schema import REQUIRED, Field, Table, text_field, texts_field

EFFECTS = ("safe", "off_balance", "down", "down_hurt")
FALL_RESULTS = ("nothing", "off_balance", "fall")
CONDITIONS = ("self_off_balance_or_down", "opponent_in_back_space", "in_opponent_back_space", "opponent_down",
              "opponent_off_balance", "otherwise")


def _int(name: str, default: Any = REQUIRED, low: int = -99, high: int = 99) -> Field:
    return Field(name, int, default, low=low, high=high)


def _ja(name: str, max_len: int = 300) -> Field:
    """The Japanese twin of a text field (empty: the English is shown)."""
    return text_field(f"{name}_ja", "", max_len=max_len)


_ROLL = (_int("low", low=0), _int("high", low=0))
TABLES: dict[str, Table] = {t.name: t for t in (
    Table("actions", (text_field("id", REQUIRED), text_field("name", REQUIRED), _ja("name", 100),
                      _int("cost", low=0, high=10), Field("per_level", bool, False), Field("all_points", bool, False),
                      Field("starred", bool, False), text_field("note", "", max_len=300), _ja("note")), many=True),
    Table("run", (_int("bonus", low=0, high=10), Field("twice_running", bool, False))),
    Table("forced_drop", (*_ROLL, text_field("jumper", REQUIRED, choices=EFFECTS), text_field("text", REQUIRED),
                          _ja("text")), many=True),
    Table("jump_onto", (*_ROLL, text_field("jumper", REQUIRED, choices=EFFECTS),
                        text_field("target", REQUIRED, choices=EFFECTS), _int("target_damage", 0, 0, 20),
                        Field("target_drops_weapon", bool, False), text_field("text", REQUIRED), _ja("text")),
          many=True),
    Table("fall", (*_ROLL, text_field("result", REQUIRED, choices=FALL_RESULTS), text_field("text", REQUIRED,
                                                                                             max_len=300),
                   _ja("text")), many=True),
    Table("fall_modifiers", (_int("off_balance"), _int("down"), _int("hard_pushed"))),
    Table("throwing", (_int("range_over_height"), _int("per_level_lower"), _int("beyond_effective"),
                       _int("page", low=1, high=300))),
    Table("effective_range", (text_field("weapon", REQUIRED), _int("range", low=0)), many=True),
    Table("weapon_names", (text_field("weapon", REQUIRED), _ja("weapon", 60)), many=True),
    Table("start_pages", (text_field("condition", REQUIRED, choices=CONDITIONS), _int("page", low=1, high=300),
                          text_field("text", REQUIRED), _ja("text")), many=True),
    Table("fall_page", (_int("page", low=1, high=300),)),
    Table("recovery", (_int("hp", low=-10, high=10), texts_field("results", REQUIRED, 9, min_len=9)), many=True),
    Table("recovery_rules", (_int("coup_de_grace"), _int("lowest_die"), _int("highest_die"))),
)}


@dataclass(frozen=True)
class ChartAction:
    """One row of the movement chart."""

    id: str
    name: str
    cost: int
    per_level: bool
    all_points: bool
    starred: bool
    note: str


@dataclass(frozen=True)
class Row:
    """One row of a 1d6 table: the results ``low``–``high`` and what they do."""

    low: int
    high: int
    values: dict[str, Any]

    def holds(self, die: int) -> bool:
        return self.low <= die <= self.high


def localised_field(row: dict[str, Any], key: str) -> str:
    """A row's text ``key`` in the current language: its ``<key>_ja`` twin in Japanese, the English where empty."""
    lang = current_language()
    if lang == SOURCE_LANGUAGE:
        return str(row[key])
    return str(row.get(f"{key}_{lang}") or row[key])


@cache
def data() -> dict[str, Any]:
    """The whole chart file, checked."""
    return load_rule_data(__package__ or "engine.rules.lost_worlds", "chart.toml", TABLES)


def actions() -> dict[str, ChartAction]:
    """The movement chart by action id (names and notes in the current language)."""
    return {r["id"]: ChartAction(r["id"], localised_field(r, "name"), r["cost"], r["per_level"], r["all_points"],
                                 r["starred"], localised_field(r, "note"))
            for r in data()["actions"]}


def action(action_id: str) -> ChartAction:
    return actions()[action_id]


def cost(action_id: str) -> int:
    """The movement points an action costs (per level for climbing)."""
    return action(action_id).cost


def starred(action_id: str) -> bool:
    """Whether the action cannot be combined with running in one turn."""
    return action(action_id).starred


def run_bonus() -> int:
    return int(data()["run"]["bonus"])


def table(name: str) -> tuple[Row, ...]:
    """A 1d6 table (``forced_drop``, ``jump_onto``, ``fall``) as rows (``text`` in the current language)."""
    return tuple(Row(r["low"], r["high"], {**r, "text": localised_field(r, "text")}) for r in data()[name])


def lookup(name: str, die: int) -> Row:
    """The row of a 1d6 table that a (modified) die falls in."""
    rows = table(name)
    for row in rows:
        if row.holds(die):
            return row
    return rows[-1] if die > rows[-1].high else rows[0]


def fall_modifiers() -> dict[str, int]:
    return dict(data()["fall_modifiers"])


def throwing() -> dict[str, int]:
    return dict(data()["throwing"])


def effective_ranges() -> dict[str, int]:
    return {r["weapon"]: r["range"] for r in data()["effective_range"]}


def weapon_name(weapon: str) -> str:
    """A weapon as the players read it: the rule document's Japanese name in Japanese (the scenario's otherwise)."""
    for r in data()["weapon_names"]:
        if r["weapon"] == weapon.lower():
            return localised_field(r, "weapon")
    return weapon


def start_pages() -> tuple[tuple[str, int, str], ...]:
    """The combat-start table in priority order: (condition, page, text)."""
    return tuple((r["condition"], r["page"], localised_field(r, "text")) for r in data()["start_pages"])


def fall_page() -> int:
    return int(data()["fall_page"]["page"])


def recovery_rows() -> dict[int, tuple[str, ...]]:
    """The recovery table: current hit points → the new hit points per clamped die (``D``: dead)."""
    return {r["hp"]: tuple(r["results"]) for r in data()["recovery"]}


def recovery_rules() -> dict[str, int]:
    return dict(data()["recovery_rules"])
