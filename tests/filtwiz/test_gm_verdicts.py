"""The verdict on each hit is the GM's: at a table with a game master only the GM's tablet gives it, the others are
refused saying who decides and how to become GM; at a table without one anyone gives it and the prompt says the
table decides. The players' own prompts stay anyone's either way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.errors import EngineError
from engine.i18n import set_language
from engine.service.session import EngineSession, open_session
from engine.wire import check_game
from engine.wire.commands import parse_request
from tests.app.gm_examples import RIVER_AMBUSH, verdict_actions

GM_TABLET = "gm-tablet"


@pytest.fixture()
def engine(tmp_path: Path) -> Iterator[EngineSession]:
    session = open_session(str(tmp_path / "journal.sqlite"), RIVER_AMBUSH, new=True)
    yield session
    session.close()


def answer(engine: EngineSession, action: dict[str, Any], gm: bool = False) -> dict[str, Any]:
    request = parse_request(json.dumps({"cmd": "action", "id": "t", "action": action}))
    return engine.handle(request, gm=gm)[0]


def to_a_verdict(engine: EngineSession) -> None:
    """Play the players' prompts from a tablet that is not the GM until the GM's verdict is asked (the auto player's
    actions up to it, as the tablet tests replay them)."""
    for action in verdict_actions():
        answer(engine, action)
    assert engine.game.prompt.gm, "the engine's game left the auto player's"


def test_with_a_gm_only_the_gm_gives_the_verdict(engine: EngineSession) -> None:
    engine.gm_tablet = GM_TABLET
    to_a_verdict(engine)  # the players' prompts: answered by a tablet that is not the GM
    prompt = engine.snapshot_dict()["prompt"]
    assert prompt["decider"] == "gm" and prompt["decider_text"].startswith("The game master decides")
    assert {o["id"] for o in prompt["options"]} == {"out", "prone", "hit", "miss"}
    played = len(engine.game.history)
    with pytest.raises(EngineError) as refused:
        answer(engine, {"kind": "choose", "option": "miss"})
    said = str(refused.value)
    assert said.startswith("the game master decides this (") and f"'{GM_TABLET}'" in said
    assert "enter the GM code the engine printed" in said  # how to become GM
    assert len(engine.game.history) == played and engine.game.prompt.gm  # nothing changed
    out = answer(engine, {"kind": "choose", "option": "miss"}, gm=True)
    assert out["action"] == "choose miss" and len(engine.game.history) == played + 1
    if not engine.game.prompt.gm:  # the next prompt is the players' again (unless another target waits)
        assert engine.current_dict()["prompt"]["decider"] == "players"


def test_without_a_gm_the_table_decides_and_anyone_answers(engine: EngineSession) -> None:
    assert engine.gm_tablet is None
    to_a_verdict(engine)
    prompt = engine.current_dict()["prompt"]
    assert prompt["decider"] == "table" and "so the table decides" in prompt["decider_text"]
    assert "GM:" not in prompt["text"]  # the rule set's text does not claim a GM the table has not got
    played = len(engine.game.history)
    answer(engine, {"kind": "choose", "option": "hit"})  # a tablet that is not the GM
    assert len(engine.game.history) == played + 1


def test_the_players_prompts_say_nothing_of_a_gm(engine: EngineSession) -> None:
    engine.gm_tablet = GM_TABLET
    game = engine.snapshot_dict()
    check_game(game, "game")  # the new fields pass the wire's check
    assert game["prompt"]["decider"] == "players" and game["prompt"]["decider_text"] == ""


def test_the_refusal_and_the_decider_in_japanese(engine: EngineSession) -> None:
    engine.gm_tablet = GM_TABLET
    to_a_verdict(engine)
    set_language("ja")
    try:
        with pytest.raises(EngineError, match="ゲームマスターが決めること"):
            answer(engine, {"kind": "choose", "option": "miss"})
        assert engine.current_dict()["prompt"]["decider_text"].startswith("ゲームマスターが決めます")
    finally:
        set_language("en")
