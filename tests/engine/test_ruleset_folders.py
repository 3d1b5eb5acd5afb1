"""A rule-set folder is a real package: its modules import each other, and it comes and goes with HEXA_RULESETS."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import rules
from engine.rules.fantasy_battle.rules import FantasyBattle

INIT = '''
from engine.rules import register

from .variant import Variant

register(Variant)
'''

VARIANT = '''
from engine.rules.fantasy_battle.rules import FantasyBattle

from . import words


class Variant(FantasyBattle):
    name = "split-variant"
    title = words.TITLE
'''


ONE_FILE = '''
from engine.rules import register
from engine.rules.fantasy_battle.rules import FantasyBattle


@register
class Variant(FantasyBattle):  # it takes Fantasy Battle's aliases too
    name = "one-file-variant"
    title = "A variant in one module"
'''


@pytest.fixture()
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    yield monkeypatch
    monkeypatch.delenv(rules.FOLDERS_VARIABLE, raising=False)
    rules.reload_plugins()


@pytest.fixture()
def split(tmp_path: Path) -> Path:
    package = tmp_path / "split_variant"
    package.mkdir()
    (package / "__init__.py").write_text(INIT, encoding="utf-8")
    (package / "variant.py").write_text(VARIANT, encoding="utf-8")
    (package / "words.py").write_text("TITLE = 'A variant in three modules'\n", encoding="utf-8")
    return package


def test_a_rule_set_folder_of_several_modules_imports_them_relatively(plugins: pytest.MonkeyPatch,
                                                                        split: Path) -> None:
    plugins.setenv(rules.FOLDERS_VARIABLE, str(split))
    rules.reload_plugins()
    found = rules.find_ruleset("split-variant")
    assert found.title == "A variant in three modules" and issubclass(found, FantasyBattle)


def test_a_folder_no_longer_named_is_forgotten_and_found_again_when_named(plugins: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    folder = tmp_path / "one_file"
    folder.mkdir()
    (folder / "__init__.py").write_text(ONE_FILE, encoding="utf-8")
    plugins.setenv(rules.FOLDERS_VARIABLE, str(folder))
    rules.reload_plugins()
    first = rules.find_ruleset("one-file-variant")
    assert rules.find_ruleset("fb") is first  # it took the alias
    plugins.delenv(rules.FOLDERS_VARIABLE)
    rules.reload_plugins()
    assert "one-file-variant" not in rules.ruleset_names()
    with pytest.raises(KeyError, match="'one-file-variant' is unknown"):
        rules.find_ruleset("one-file-variant")
    assert rules.find_ruleset("fb") is FantasyBattle  # the built-in one has its names back
    plugins.setenv(rules.FOLDERS_VARIABLE, str(folder))
    rules.reload_plugins()
    assert rules.find_ruleset("one-file-variant") is first  # the same class: its module ran once
