"""Rule sets from outside engine/rules/: a folder named in HEXA_RULESETS is loaded with nothing changed elsewhere."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import rules
from engine.rules.fantasy_battle.rules import FantasyBattle

VARIANT = '''
from engine.rules import register
from engine.rules.fantasy_battle.rules import FantasyBattle


@register
class Variant(FantasyBattle):
    name = "plugin-variant"
    aliases = ("pv",)
    title = "A variant from a folder of its own"
'''


@pytest.fixture()
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    yield monkeypatch
    monkeypatch.delenv(rules.FOLDERS_VARIABLE, raising=False)
    rules.reload_plugins()


def test_a_rule_set_folder_named_in_the_environment_is_found_by_name(plugins: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    folder = tmp_path / "variant"
    folder.mkdir()
    (folder / "__init__.py").write_text(VARIANT, encoding="utf-8")
    plugins.setenv(rules.FOLDERS_VARIABLE, str(folder))
    rules.reload_plugins()
    found = rules.find_ruleset("PV")
    assert found.title == "A variant from a folder of its own" and issubclass(found, FantasyBattle)
    assert "plugin-variant" in rules.ruleset_names()


def test_a_broken_rule_set_folder_is_named_and_the_others_still_load(plugins: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise RuntimeError('half written')\n", encoding="utf-8")
    plain = tmp_path / "no-package"
    plain.mkdir()
    plugins.setenv(rules.FOLDERS_VARIABLE, os.pathsep.join([str(broken), str(plain)]))
    rules.reload_plugins()
    assert rules.find_ruleset("fantasy-battle") is FantasyBattle
    with pytest.raises(KeyError) as refused:
        rules.find_ruleset("race")
    text = str(refused.value)
    assert "rule set 'race' is unknown" in text
    assert "RuntimeError: half written" in text and "no __init__.py" in text
