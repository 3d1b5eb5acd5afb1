"""The table's language: a tablet switches it, the engine remakes the game's texts and keeps the game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import i18n
from engine.wire import GameScenarioMessage, GameStateMessage
from tests.service.conftest import Rig
from tests.waiting import WAIT_S


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_the_language_command_remakes_every_text_of_the_running_game(rig: Rig) -> None:
    rig.act("action", action={"kind": "roll", "values": [2, 5]})
    before = rig.act("snapshot")
    assert before["language"] == "en" and before["scenario"]["language"] == "en"
    assert before["game"]["prompt"]["text"].startswith("Goblins: ranged phase")

    assert rig.act("language", lang="ja")["language"] == "ja"
    scenario = rig.tablet.wait_for(b"game.scenario", WAIT_S)
    assert isinstance(scenario, GameScenarioMessage)
    assert scenario.scenario["language"] == "ja" and scenario.scenario["name"] == "チュートリアル：小競り合い"
    assert scenario.scenario["glossary"][0]["term"] == "決戦状態"
    assert scenario.scenario["phases"]["ranged"] == "射撃フェイズ"
    state = rig.tablet.wait_for(b"game.state", WAIT_S)
    assert isinstance(state, GameStateMessage)
    assert state.history_from == 1 and [h["n"] for h in state.history] == [1]  # the whole history, remade
    assert state.prompt["text"] == "ゴブリン軍：射撃フェイズ。射撃か魔法をするフィギュアを選ぶか、終えてください。"

    after = rig.act("snapshot")
    assert after["language"] == "ja" and after["game_id"] == before["game_id"]
    texts = [e["text"] for h in after["game"]["history"] for e in h["events"]]
    assert texts == ["手番の順番：騎士団 2、ゴブリン軍 5（振った）　ゴブリン軍、騎士団の順。",
                     "第1ラウンド：ゴブリン軍の手番。"]
    assert after["game"]["state"] == before["game"]["state"]  # the same game, only its words changed
    refused = rig.tablet.request("action", action={"kind": "roll", "values": [9]})
    assert not refused.ok and "答えてください" in (refused.error or "")

    assert rig.act("language", lang="en")["language"] == "en"
    back = rig.act("snapshot")
    assert back["scenario"]["name"] == "Tutorial Skirmish"
    assert back["game"]["prompt"]["text"] == before["game"]["prompt"]["text"]
    assert len(rig.journal_rows()) == 1  # switching wrote nothing to the journal


def test_a_language_the_table_does_not_speak_is_refused_by_the_wire_schema(rig: Rig) -> None:
    reply = rig.tablet.request("language", lang="fr")
    assert not reply.ok and reply.error == "language.lang: must be one of en, ja; got 'fr'"
    reply = rig.tablet.request("language")
    assert not reply.ok and "lang" in (reply.error or "")
    assert rig.act("snapshot")["language"] == "en"
