"""The tools work over rule-set folders of one's own: a folder without a catalogue loads in English with one
warning, and the catalogue tool builds and checks a folder's catalogue (named on its command line or in
HEXA_RULESETS)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import i18n, i18n_catalogues, rules
from engine.i18n import catalogue_file
from engine.rules.fantasy_battle.rules import FantasyBattle

INIT = '''
from engine.rules import register

from .rules import Untranslated

register(Untranslated)
'''
RULES = '''
from engine.i18n import gettext_for, ngettext_for
from engine.rules.fantasy_battle.rules import FantasyBattle

from . import words

_ = gettext_for(__name__)
_n = ngettext_for(__name__)


class Untranslated(FantasyBattle):
    name = "untranslated-variant"
    title = "A variant with no catalogue"

    def greeting(self, count: int) -> str:
        return _("Hello, {name}.", name=words.who()) + " " + _n("{n} goblin", "{n} goblins", count)
'''
WORDS = '''
from engine.i18n import gettext_for

_ = gettext_for(__name__)


def who() -> str:
    return _("traveller")
'''


@pytest.fixture()
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    yield monkeypatch
    monkeypatch.delenv(rules.FOLDERS_VARIABLE, raising=False)
    rules.reload_plugins()


def _folder(tmp_path: Path, name: str = "untranslated") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text(INIT, encoding="utf-8")
    (folder / "rules.py").write_text(RULES, encoding="utf-8")
    (folder / "words.py").write_text(WORDS, encoding="utf-8")
    return folder


def test_a_plugin_without_a_catalogue_loads_in_english_with_one_warning(
        plugins: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    plugins.setenv(rules.FOLDERS_VARIABLE, str(_folder(tmp_path)))
    with caplog.at_level(logging.WARNING, logger="engine"):
        rules.reload_plugins()
        cls = rules.find_ruleset("untranslated-variant")  # loaded, not refused
    warned = [r.getMessage() for r in caplog.records if "catalogue" in r.getMessage()]
    assert len(warned) == 1, warned  # two modules, one package: one warning
    assert re.search(r"hexa_rulesets\.untranslated\w* has no locale/ catalogue", warned[0]), warned[0]
    assert "Fix: add" in warned[0]
    assert not [r for r in caplog.records if r.name == "engine.rules"]  # nothing failed to load
    assert issubclass(cls, FantasyBattle)
    from engine.scenario import load_scenario

    rules_obj = cls(load_scenario("tutorial"))
    with i18n.speaking("ja"):
        assert rules_obj.greeting(2) == "Hello, traveller. 2 goblins"  # type: ignore[attr-defined]
    assert rules_obj.greeting(1) == "Hello, traveller. 1 goblin"  # type: ignore[attr-defined]


def test_the_catalogue_tool_builds_and_checks_a_plugin_folders_catalogue(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    top = tmp_path / "no-product"  # only the plug-in: the product's catalogues are left alone
    top.mkdir()
    assert i18n_catalogues.catalogue_roots(top, [folder]) == [folder.resolve()]
    written = i18n_catalogues.update(top, [folder])
    po = catalogue_file(folder.resolve(), "ja")
    assert written == [po] and po.is_file()
    missing = {m.message for m in i18n_catalogues.untranslated(top, [folder])}
    assert missing == {"Hello, {name}.", "{n} goblin", "traveller"}
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgid "traveller"\nmsgstr ""', 'msgid "traveller"\nmsgstr "旅人"')
    text = text.replace('msgid "Hello, {name}."\nmsgstr ""', 'msgid "Hello, {name}."\nmsgstr "こんにちは、{name}。"')
    text = text.replace('msgstr[0] ""', 'msgstr[0] "ゴブリン{n}体"')
    po.write_text(text, encoding="utf-8")
    assert i18n_catalogues.untranslated(top, [folder]) == []


def test_the_catalogue_tool_reads_the_folders_named_in_hexa_rulesets(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert i18n_catalogues.plugin_folders({rules.FOLDERS_VARIABLE: f"{a}:{b}:"}) == [a.resolve(), b.resolve()]
    assert i18n_catalogues.plugin_folders({}) == []
    assert i18n_catalogues.main(["check", str(tmp_path)]) == 2  # not a package: said, with the fix
