"""Lost Worlds in Japanese: the movement chart's maneuvers, prompts, refusals, counts, the glossary, a whole game."""

from __future__ import annotations

from pathlib import Path

from engine.i18n import speaking
from engine.rules.lost_worlds import chart
from engine.rules.lost_worlds.condition import HP, badges
from engine.rules.lost_worlds.rules import LostWorlds
from tests.engine.english_runs import leaked
from tests.engine.test_cli_play import hexa

from .tower import game, tower

HERO = {"name": "Hero", "side": "a", "at": "A1", "height": 3, "weapons": ["dagger"]}
FOE = {"name": "Foe", "side": "b", "at": "B1"}


def labels(g: object) -> dict[str, str]:
    rules, state = g.rules, g.state  # type: ignore[attr-defined]
    return {o.id: o.label for o in rules.prompt(state).options}


def test_the_movement_prompt_offers_the_charts_maneuvers_in_japanese() -> None:
    g = game(tower(figures=(HERO, FOE)))
    with speaking("ja"):
        prompt = g.rules.prompt(g.state)
        assert prompt.text == "A1（高度0）のHero：移動力 残り3/3。何をしますか？"
        got = labels(g)
        assert got["lie_down"] == "伏せる（移動力0）"
        assert got["block-foe"].startswith("Foeを阻止する（移動力2、*付き")
        assert got["push-foe"] == "Foeを押す（移動力2：相手はただちに転倒表を振る）"
        assert got["run"].startswith("走行（移動力＋2")
    with speaking("en"):
        assert labels(g)["lie_down"] == "lie down (0 MP)"


def test_refusals_and_tables_come_in_japanese() -> None:
    g = game(tower(figures=(HERO, FOE)))
    rules = g.rules
    assert isinstance(rules, LostWorlds)
    with speaking("ja"):
        assert rules.why_not(g.state, "hero", rules.board.from_label("B1")) == "B1：敵がいる"
        assert chart.lookup("fall", 6).values["text"].startswith("転倒：")
        assert chart.action("crawl").name == "匍匐前身"
        assert chart.start_pages()[-1][2] == "上記以外の状況"
        assert chart.weapon_name("dagger") == "短剣"
    with speaking("en"):
        assert chart.action("crawl").name == "crawl" and chart.weapon_name("dagger") == "dagger"


def test_counts_take_their_counters_and_badges_their_japanese_names() -> None:
    g = game(tower(figures=(HERO, FOE)))
    hero = g.state.figures["hero"]
    hero.values[HP] = 7
    hero.mark("off-balance", True)
    with speaking("ja"):
        assert badges(hero) == ("体力 7", "移動力 3", "バランスを崩す")
        overlay = g.rules.query(g.state, "battle-range", "hero")
        assert "B1のFoe：戦闘範囲にいる" in overlay.texts
    with speaking("en"):
        assert badges(hero) == ("hp 7", "mp 3", "off-balance")


def test_the_glossary_comes_in_the_japanese_rules_terms() -> None:
    with speaking("ja"):
        terms = {t.term for t in LostWorlds.glossary()}
    expected = {"移動力", "戦闘範囲", "背後スペース", "阻止", "高度", "強引な飛び降り", "転倒チェック", "意識の回復"}
    assert expected <= terms


def test_a_japanese_auto_game_prints_no_english_sentence_of_the_rule_set(tmp_path: Path) -> None:
    result = hexa(["play", "--auto", "--seed", "2", "--lang", "ja", "lost-worlds-ruined-tower"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "次に移動するキャラクターを選んでください" in result.stdout and "背後スペース" in result.stdout
    assert not leaked(result.stdout, "engine.rules.lost_worlds"), result.stdout[-3000:]
