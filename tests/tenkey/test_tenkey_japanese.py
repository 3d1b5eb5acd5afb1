"""Tenkey battle in Japanese: prompts, refusals, counts and the glossary in the original's terms, and a whole
``hexa play tenkey-skirmish --auto --lang ja`` game without the English of the rule set's own texts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.actions import Choose, Move
from engine.errors import IllegalActionError
from engine.i18n import speaking
from engine.rules.content import load_glossary
from tests.engine.english_runs import leaked
from tests.tenkey.tenkey_scenarios import act, game, zone

ROOT = Path(__file__).resolve().parents[2]


def test_the_move_prompt_and_its_options_speak_the_originals_terms() -> None:
    g = game([("ann", "party", "2", {"movement": 12}), ("orc", "band", "9", {})])
    act(g, "ann")
    with speaking("ja"):
        labels = [o.label for o in g.prompt.options]
        assert g.prompt.text == "Ann：どう移動する？"
    assert labels == ["通常移動（最大12m）、その後に行動", "全力移動（最大36m）、行動はしない", "2に留まって行動"]
    act(g, "normal")
    with speaking("ja"):
        assert g.prompt.text == "Annを最大12m移動してください（縦に1マス10m、横に1マス3m）。"


def test_a_refused_move_says_why_in_japanese() -> None:
    g = game([("ann", "party", "2", {"movement": 9}), ("orc", "band", "9", {})])
    act(g, "ann", "normal")
    with speaking("ja"), pytest.raises(IllegalActionError, match=r"5へは10m必要.*余りは持ち越せない"):
        g.apply(Move("ann", zone(g, "5")))


def test_hit_points_are_counted_with_their_counter_word() -> None:
    g = game([("ann", "party", "5", {}), ("orc", "band", "5", {"hp": 3})])
    act(g, "ann", "stay", "melee:orc", "hit")
    with speaking("ja"):
        labels = [o.label for o in g.prompt.options]
        assert g.prompt.text == "ダメージを振ってください：OrcはHPを何点失う？（残り3点）"
    assert labels == ["3点：Orcは倒れる", "2点", "1点", "0点"]
    with speaking("ja"):
        events = g.apply(Choose("1"))
    assert events[0].text == "OrcはHPを1点失った（残り2点）。"


def test_the_glossary_gives_the_terms_as_the_original_writes_them() -> None:
    with speaking("ja"):
        terms = {t.term: t.text for t in load_glossary("engine.rules.tenkey")}
    for term in ("マス", "乱戦エリア", "移動妨害", "鷹の目", "足さばき", "誤射", "形状:貫通"):
        assert term in terms
    assert "《足さばき》" in terms["足さばき"]


def test_english_stays_as_it_was() -> None:
    g = game([("ann", "party", "5", {}), ("orc", "band", "5", {"hp": 3})])
    act(g, "ann", "stay", "melee:orc", "hit")
    assert [o.label for o in g.prompt.options][:2] == ["3: Orc is down", "2 hit points"]
    assert [o.label for o in g.prompt.options][2] == "1 hit point"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_auto_game_in_japanese_prints_none_of_the_rule_sets_english(tmp_path: Path, seed: int) -> None:
    result = subprocess.run([sys.executable, "-m", "engine", "play", "tenkey-skirmish", "--auto", "--lang", "ja",
                             "--seed", str(seed)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "先制を取った。" in out and "敵はすべて倒れた" in out
    found = leaked(out, "engine.rules.tenkey")
    assert not found, found
