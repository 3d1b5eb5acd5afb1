"""Rule-set data files are held to declared tables by the scenario reader: line-numbered errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import ScenarioError
from engine.rules.data import load_rule_data, read_rule_data
from engine.scenario_schema import REQUIRED, Table, number_field, text_field

TABLES = {"moves": Table("moves", (text_field("name", REQUIRED), number_field("cost", REQUIRED, 0, 20)), many=True)}
TEXT = """
[[moves]]
name = "walk"
cost = 2

[[moves]]
name = "run"
cost = 4
"""


def test_a_data_file_reads_into_checked_rows() -> None:
    assert read_rule_data(TEXT, "moves.toml", TABLES) == {"moves": ({"name": "walk", "cost": 2},
                                                                    {"name": "run", "cost": 4})}


@pytest.mark.parametrize(("change", "message"), [
    (("cost = 4", "cost = 40"), r"moves.toml, line 8: 'cost' is 40, outside 0 to 20"),
    (("cost = 4", "csot = 4"), r"line 8: key 'csot' is not a key of \[\[moves\]\].*did you mean 'cost'"),
    (("[[moves]]\nname = \"walk\"", "[[move]]\nname = \"walk\""), r"line 2: \[\[move\]\] is not a table"),
])
def test_a_bad_data_file_names_the_line(change: tuple[str, str], message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        read_rule_data(TEXT.replace(*change, 1), "moves.toml", TABLES)



def test_a_rule_sets_data_file_is_read_once_from_its_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "chart_rules"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "moves.toml").write_text(TEXT)
    monkeypatch.syspath_prepend(str(tmp_path))
    first = load_rule_data("chart_rules", "moves.toml", TABLES)
    assert first["moves"][1] == {"name": "run", "cost": 4}
    (package / "moves.toml").write_text("not toml at all [")
    assert load_rule_data("chart_rules", "moves.toml", TABLES) is first
