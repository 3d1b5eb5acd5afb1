"""The table's language: a tablet switches it, the engine remakes the game's texts and keeps the game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import zmq

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


# Requests wrong in form, the path of the field the refusal names (a program may read it: the same in both
# languages), and the words of the English refusal.
BAD_REQUESTS: list[tuple[list[bytes], str, str]] = [
    ([b"{not json"], "request: ", "not valid JSON"),
    ([b'{"cmd": "snapshot"} trailing'], "request: ", "not valid JSON"),
    ([b"\xff\xfe"], "request: ", "not UTF-8"),
    ([b"[1, 2]"], "request: ", "expected a JSON object"),
    ([b'{"id": 4}'], "request.cmd: ", "missing (required field)"),
    ([b'{"cmd": 7}'], "request.cmd: ", "expected a string"),
    ([b'{"cmd": "jump"}'], "request.cmd: ", "unknown command 'jump'"),
    ([b'{"cmd": "snapshot", "version": 2}'], "request.version: ", "protocol 2 is not supported"),
    ([b'{"cmd": "override", "figure": "goblin-2"}'], "override.to: ", "missing (required field)"),
    ([b'{"cmd": "override", "figure": "goblin-2", "to": 5}'], "override.to: ", "expected a hex label"),
    ([b'{"cmd": "load", "game_id": "one"}'], "load.game_id: ", "expected an integer"),
    ([b'{"cmd": "new_game", "scenario": ""}'], "new_game.scenario: ", "must not be empty"),
    ([b'{"cmd": "gm", "op": "fly"}'], "gm.op: ", "must be one of"),
    ([b"engine.command", b'{"cmd": "snapshot"}'], "", "expected one frame"),
]


def test_a_request_wrong_in_form_is_refused_in_the_tables_language_naming_the_same_field(rig: Rig) -> None:
    from engine.wire import ENGINE_COMMANDS, GM_OPS
    from tests.engine.english_words import english_lines

    names = {*ENGINE_COMMANDS, *GM_OPS, "jump", "fly", "one", "request", "json", "null", "true", "false"}
    for frames, field, english in BAD_REQUESTS:
        rig.tablet.send_raw(frames)
        reply = rig.tablet.wait_reply(None, WAIT_S)
        assert not reply.ok and reply.cmd is None and (reply.error or "").startswith(field), reply.error
        assert english in (reply.error or ""), reply.error
    rig.act("language", lang="ja")
    for frames, field, english in BAD_REQUESTS:
        rig.tablet.send_raw(frames)
        reply = rig.tablet.wait_reply(None, WAIT_S)
        error = reply.error or ""
        assert not reply.ok and reply.cmd is None and error.startswith(field), error
        assert english not in error and not error.isascii(), error
        assert not english_lines(error.removeprefix(field), names), (frames, error)
    assert rig.act("snapshot")["language"] == "ja"  # nothing was changed by the refusals


def test_the_engine_clients_timeouts_read_in_the_current_language(context: zmq.Context[zmq.Socket[bytes]]) -> None:
    from engine.service.client import EngineClient
    from tests.engine.english_words import english_lines

    silent = context.socket(zmq.ROUTER)  # an engine that never answers
    silent.setsockopt(zmq.LINGER, 0)
    silent.bind("tcp://127.0.0.1:*")
    nowhere = "tcp://127.0.0.1:9"  # nothing listens there
    waiting = EngineClient(nowhere, silent.getsockopt_string(zmq.LAST_ENDPOINT), context)
    nobody = EngineClient(nowhere, nowhere, context)
    nobody.dealer.close(linger=0)  # a link no connection can take a command from (as when CURVE refused it)
    nobody.dealer = context.socket(zmq.DEALER)
    nobody.dealer.setsockopt(zmq.LINGER, 0)
    nobody.dealer.setsockopt(zmq.IMMEDIATE, 1)
    nobody.dealer.connect(nowhere)
    try:
        i18n.set_language("ja")
        with pytest.raises(TimeoutError) as unreachable:
            nobody.request("snapshot", timeout_s=0.2)
        with pytest.raises(TimeoutError) as unanswered:
            waiting.request("snapshot", timeout_s=0.2)
        assert waiting.sync_reason == "" and waiting.ask_snapshot() and waiting.sync_reason == "参加中"  # the badge
        assert "エンジンにつながりません" in str(unreachable.value)
        assert "0.2秒待ってもエンジンから返答がありません" in str(unanswered.value)
        for text in (str(unreachable.value), str(unanswered.value)):
            assert not english_lines(text, ["hexa", "engine", "--lan"]), text
    finally:
        nobody.close()
        waiting.close()
        silent.close(linger=0)


def test_a_malformed_published_message_is_refused_in_the_processs_language() -> None:
    from engine import wire

    frames = [b"tracks", b'{"topic": "tracks", "version": 1, "seq": 1, "sent_at": 1.0}']
    with pytest.raises(wire.WireError, match=r"^tracks\.\w+: missing \(required field\)$"):
        wire.decode(frames)
    i18n.set_language("ja")
    with pytest.raises(wire.WireError, match=r"^tracks\.\w+: ありません（必須の項目です）$"):
        wire.decode(frames)
    with pytest.raises(wire.WireError, match=r"^message: JSONとして正しくありません"):
        wire.decode([b"tracks", b"{"])
