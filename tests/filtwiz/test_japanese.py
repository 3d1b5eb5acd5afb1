"""Filtwiz in Japanese: prompts, refusals, counts with their counters, the calculators, the glossary, a whole game."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.i18n import speaking
from engine.rules.content import QueryInput
from engine.rules.filtwiz import calculators, mass_combat
from engine.rules.filtwiz.rules import Filtwiz
from tests.engine.english_runs import leaked
from tests.engine.test_cli_play import hexa

from .scenarios import scenario, started

FIGURES = """
[[figures]]
name = "Nue"
marker = 1
side = "explorers"
at = "A1"

[[figures]]
name = "Rose"
marker = 2
side = "explorers"
at = "B1"

[[figures]]
name = "Orc"
marker = 3
side = "bandits"
at = "D1"
"""
DRAWING = """
.   .   .
  .   .
.   .   .
  .   .
"""


def test_the_turns_prompts_and_refusals_come_in_japanese() -> None:
    game = started(scenario(DRAWING, FIGURES))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    with speaking("ja"):
        assert rules.prompt(game.state).text == "Explorers：次に行動するキャラクターを選んでください"
        end = rules.prompt(game.state).options[-1]
        assert end.label == "ターンを終える（ほかのキャラクターは行動しない）"
        assert rules.why_not(game.state, "nue", rules.board.from_label("B1")) == (
            "B1にはほかのキャラクターがいます。ほかのキャラクターのいるヘクスで移動は終えられません")
        assert rules.skill_words("nue") == "1ヘクス以内の見えている敵1体を攻撃"
    with speaking("en"):
        assert rules.prompt(game.state).text == "Explorers: which character acts next?"


def test_counts_take_their_japanese_counters() -> None:
    game = started(scenario(DRAWING, FIGURES))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    with speaking("ja"):
        seen = rules.query_with(game.state, "seen_by", "C1", QueryInput())
        assert seen.texts == ("C1が見えているキャラクター3体",)
        in_range = rules.query_with(game.state, "range", "nue", QueryInput(size=1))
        assert in_range.texts[0].startswith("射程1以内：") and in_range.texts[0].endswith("ヘクス")
    with speaking("en"):
        assert rules.query_with(game.state, "seen_by", "C1", QueryInput()).texts == ("3 characters see C1",)


def test_the_calculators_refuse_in_japanese_with_the_supplements_terms() -> None:
    with speaking("ja"):
        problems = mass_combat.check_super_combo(2, False, True)
        assert problems[0] == "2ラウンド目です。超必殺連携は3ラウンド目以降に使えます"
        assert "シナリオ終了" in problems[2]
        with pytest.raises(ValueError, match="決闘には双方〔HP〕1以上が必要です"):
            calculators.run_duel({"hp": {"nue": 0, "orc": 5}})
        assert calculators.run_difficulty({"value": 6})["name"] == "やや難"


def test_the_glossary_comes_in_the_supplements_japanese_terms() -> None:
    with speaking("ja"):
        terms = {t.term for t in Filtwiz.glossary()}
    assert {"ボコスカ戦闘", "超必殺連携", "決闘", "移動妨害", "完全飛行移動", "扇形", "射程"} <= terms
    with speaking("en"):
        assert "mass combat" in {t.term for t in Filtwiz.glossary()}


def test_a_japanese_auto_game_prints_no_english_sentence_of_the_rule_set(tmp_path: Path) -> None:
    result = hexa(["play", "--auto", "--seed", "2", "--lang", "ja", "filtwiz-river-ambush"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "ボコスカ戦闘" not in result.stdout  # (not part of a turn) but the turn's own words are:
    assert "次に行動するキャラクターを選んでください" in result.stdout and "★気絶" in result.stdout
    assert not leaked(result.stdout, "engine.rules.filtwiz"), result.stdout[-3000:]
