"""The languages: choice, lookup, plurals, and every message translated."""

from __future__ import annotations

import pytest

from engine import i18n
from engine.fonts import japanese_font
from engine.i18n_catalogues import catalogue_roots, untranslated


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    i18n.set_language("en")


def test_every_message_in_the_code_has_its_japanese_translation() -> None:
    missing = untranslated()
    assert not missing, "\n".join(str(m) for m in missing[:40]) + f"\n... {len(missing)} in all"


def test_catalogues_are_up_to_date_with_the_code() -> None:
    # Every catalogue holds exactly the messages its code has: nothing added to the code without
    # 'python -m engine.i18n_catalogues update', nothing left over (compared as messages, not bytes,
    # so the Babel version that wrote a header does not matter).
    from babel.messages.pofile import read_po

    from engine.i18n import catalogue_file
    from engine.i18n_catalogues import extract

    roots = catalogue_roots()
    stale = []
    for root in roots:
        in_code = {m.id if isinstance(m.id, str) else m.id[0] for m in extract(root, roots) if m.id}
        with catalogue_file(root, "ja").open("rb") as f:
            in_file = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f, locale="ja") if m.id}
        if in_code != in_file:
            stale.append(f"{root.name}: new {sorted(in_code - in_file)[:5]}, gone {sorted(in_file - in_code)[:5]}")
    assert not stale, "run 'python -m engine.i18n_catalogues update':\n" + "\n".join(stale)


def test_texts_follow_the_chosen_language() -> None:
    _ = i18n.gettext_for("engine.cli.main")
    assert _("commands:") == "commands:"
    i18n.set_language("ja")
    assert _("commands:") == "コマンド:"
    assert _("hexa: unknown command {name!r}.", name="x") == "hexa: 'x' というコマンドはありません。"
    with i18n.speaking("en"):
        assert _("commands:") == "commands:"
    assert _("commands:") == "コマンド:"


def test_a_message_missing_from_the_catalogue_reads_in_english() -> None:
    _ = i18n.gettext_for("engine.cli.main")
    i18n.set_language("ja")
    assert _("not a message of {x}", x=1) == "not a message of 1"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"HEXA_LANG": "ja"}, "ja"),
        ({"HEXA_LANG": "en", "LANG": "ja_JP.UTF-8"}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANGUAGE": "fr:ja", "LANG": "fr_FR.UTF-8"}, "ja"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_language_comes_from_the_environment(environ: dict[str, str], expected: str) -> None:
    assert i18n.language_from_environment(environ) == expected


def test_lang_option_is_taken_anywhere_on_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXA_LANG", "en")
    assert i18n.take_language_option(["play", "--lang", "ja", "tutorial"]) == ["play", "tutorial"]
    assert i18n.current_language() == "ja"
    assert i18n.take_language_option(["--lang=en", "replay"]) == ["replay"]
    assert i18n.current_language() == "en"
    with pytest.raises(i18n.UnknownLanguageError, match="choose one of en, ja"):
        i18n.take_language_option(["--lang", "fr"])


def test_a_file_may_give_a_text_in_either_language() -> None:
    names = {"en": "Goblins", "ja": "ゴブリン"}
    assert i18n.localised(names, "ja") == "ゴブリン"
    assert i18n.localised(names, "en") == "Goblins"
    assert i18n.localised({"ja": "ゴブリン"}, "en") == "ゴブリン"
    assert i18n.localised("Goblins", "ja") == "Goblins"


def test_the_japanese_font_is_installed_with_its_licence() -> None:
    path = japanese_font()
    data = path.read_bytes()
    assert data[:4] in (b"\x00\x01\x00\x00", b"OTTO", b"true"), "not a TrueType/OpenType font"
    assert (path.parent / "IPA_Font_License_Agreement_v1.0.txt").is_file()



def test_every_rule_set_glossary_term_has_its_japanese_term_and_text() -> None:
    from engine.rules import builtin_rulesets
    from engine.rules.content import GLOSSARY_TABLES
    from engine.rules.data import load_rule_data

    packages = [cls.package() for cls in builtin_rulesets()]
    assert len(packages) >= 5
    missing = [
        f"{package}: {row['term']}"
        for package in packages
        for row in load_rule_data(package, "glossary.toml", GLOSSARY_TABLES)["terms"]
        if not row["term_ja"].strip() or not row["text_ja"].strip()
    ]
    assert not missing, f"glossary terms without term_ja/text_ja: {missing}"


def test_glossary_terms_come_in_the_current_language() -> None:
    from engine.rules.content import GLOSSARY_TABLES, load_glossary
    from engine.rules.data import load_rule_data

    rows = load_rule_data("engine.rules.tenkey", "glossary.toml", GLOSSARY_TABLES)["terms"]
    with i18n.speaking("en"):
        assert [t.term for t in load_glossary("engine.rules.tenkey")] == [r["term"].lower() for r in rows]
    with i18n.speaking("ja"):
        shown = load_glossary("engine.rules.tenkey")
    assert [t.term for t in shown] == [(r["term_ja"] or r["term"]).lower() for r in rows]
    assert [t.text for t in shown] == [r["text_ja"] or r["text"] for r in rows]


def test_every_translation_keeps_the_placeholders_of_its_message() -> None:
    import re
    import string

    from babel.messages.pofile import read_po

    from engine.i18n import catalogue_file

    def fields(text: str) -> set[str]:
        try:
            return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}
        except ValueError as exc:
            return {f"<unparsable: {exc}>"}

    wrong = []
    for root in catalogue_roots():
        path = catalogue_file(root, "ja")
        with path.open("rb") as f:
            catalog = read_po(f, locale="ja")
        for message in catalog:
            if not message.id or not message.string:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            expected = set().union(*(fields(i) for i in ids)) - {"n"}
            # A translator's comment may name placeholders the call gives besides the message's own.
            extra = {f for c in message.auto_comments for f in re.findall(r"\{(\w+)\}", c)}
            for text in strings:
                got = fields(text) - {"n"}
                if text and not (got - extra == expected - extra and got <= expected | extra):
                    wrong.append(f"{path.relative_to(root.parent)}: {ids[0]!r} -> {text!r}")
    assert not wrong, "\n".join(wrong)


def test_argparse_speaks_the_chosen_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.cli.main import main

    monkeypatch.setenv("HEXA_LANG", "en")
    with pytest.raises(SystemExit):
        main(["print", "--lang", "ja", "grid", "--bogus"])
    err = capsys.readouterr().err
    assert "使い方: hexa print" in err and "エラー: 知らない引数です: --bogus" in err, err
    with pytest.raises(SystemExit):
        main(["print", "grid", "--bogus", "--lang", "en"])
    assert "error: unrecognized arguments: --bogus" in capsys.readouterr().err
