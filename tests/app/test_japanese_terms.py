"""One Japanese term per concept: who acts first is イニシアチブ in Lost Worlds (its original's word), 先制 in Tenkey
(its original's word), and the texts every rule set shares (the app's header, the engine's turn flow) use neither
a third term nor another rule set's: they say it in plain words, or the rule set's own term comes from its
catalogue."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from engine.i18n_catalogues import catalogue_roots, project_root

WHO_ACTS_FIRST = ("先攻", "先制", "イニシアチブ")  # the words a Japanese text may use for who acts first
OWN_TERM = {"tenkey": "先制", "lost_worlds": "イニシアチブ"}  # each original's own word


def _japanese(root: Path) -> list[str]:
    path = root / "locale" / "ja" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        return [str(m.string) for m in read_po(f, locale="ja") if m.id and isinstance(m.string, str) and m.string]


def _owner(root: Path) -> str:
    """The rule set a catalogue belongs to ("" for the app's and the engine's own)."""
    parts = root.relative_to(project_root()).parts
    return parts[2] if len(parts) > 2 and parts[:2] == ("engine", "rules") else ""


def test_who_acts_first_has_one_word_in_each_rule_set_and_none_of_theirs_in_the_shared_texts() -> None:
    roots = catalogue_roots()
    assert any(_owner(r) == "tenkey" for r in roots) and any(_owner(r) == "" for r in roots)
    wrong = []
    for root in roots:
        owner = _owner(root)
        allowed = {OWN_TERM[owner]} if owner in OWN_TERM else set()
        if root.relative_to(project_root()).parts[:1] == ("engine",) and owner == "":
            allowed = {OWN_TERM["lost_worlds"]}  # the flow's roll before every round: Lost Worlds' alone
        for text in _japanese(root):
            used = {w for w in WHO_ACTS_FIRST if w in text}
            if used - allowed:
                wrong.append((str(root.relative_to(project_root())), text))
    assert not wrong, wrong


def test_tenkey_and_lost_worlds_say_their_own_word() -> None:
    by_owner = {_owner(r): " ".join(_japanese(r)) for r in catalogue_roots()}
    for owner, term in OWN_TERM.items():
        assert term in by_owner[owner], owner
