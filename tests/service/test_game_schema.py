"""The game payload (snapshot reply and game.state) is checked field by field, naming the field's path."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from engine import wire
from engine.actions import Choose, Roll
from engine.game import Game
from engine.prompts import Decider, PromptKind
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot
from engine.wire import GameStateMessage, WireError, check_game


def played(scenario: str = "tutorial") -> dict[str, Any]:
    """A game two actions in: the turn-order roll and the first choice offered."""
    game = Game(load_scenario(scenario))
    game.apply(Roll((2, 5)))
    game.apply(Choose(game.prompt.options[-1].id))
    snapshot: dict[str, Any] = json.loads(json.dumps(game_snapshot(game)))
    return snapshot


def update_json(game: dict[str, Any], history_from: int = 1) -> bytes:
    return GameStateMessage(7, 1.0, "run", 1, 3, game["state"], game["prompt"], game["threatened"], history_from,
                            tuple(game["history"][history_from - 1:])).to_json()


def test_the_prompt_kinds_are_the_engines() -> None:
    assert tuple(k.value for k in PromptKind) == wire.PROMPT_KINDS
    assert tuple(d.value for d in Decider) == wire.DECIDERS


def test_who_decides_a_prompt_goes_round_the_wire_and_an_older_peer_may_leave_it_out() -> None:
    game = played()
    assert (game["prompt"]["decider"], game["prompt"]["decider_text"]) == ("players", "")
    game["prompt"].update(decider="gm", decider_text="The game master decides: only the GM's tablet answers.")
    message = GameStateMessage.from_json(update_json(game, history_from=2))
    assert message.prompt["decider"] == "gm" and message.prompt["decider_text"].startswith("The game master")
    for key in ("decider", "decider_text"):
        game["prompt"].pop(key)
    assert "decider" not in GameStateMessage.from_json(update_json(game, history_from=2)).prompt


@pytest.mark.parametrize("scenario", ["tutorial", "goblins-treasure"])
def test_a_real_game_passes(scenario: str) -> None:
    game = played(scenario)
    assert check_game(game, "game") == game
    message = GameStateMessage.from_json(update_json(game, history_from=2))
    assert message.history_from == 2 and [h["n"] for h in message.history] == [2]


Mutation = Callable[[dict[str, Any]], object]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda g: g["state"]["figures"]["goblin-1"].update(alive=1),
         "game.state.state.figures.goblin-1.alive: expected true or false, got 1"),
        (lambda g: g["state"]["figures"]["goblin-1"].update(hex=[1]),
         r"game.state.state.figures.goblin-1.hex: expected a hex \[q, r\] or null"),
        (lambda g: g["state"]["figures"]["bowman"].pop("on_table"),
         "game.state.state.figures.bowman.on_table: missing"),
        (lambda g: g["state"].update(round="1"), "game.state.state.round: expected an integer"),
        (lambda g: g["state"]["step"].pop("kind"), "game.state.state.step.kind: missing"),
        (lambda g: g["state"].update(turn_sets=[]), "game.state.state.turn_sets: expected a JSON object"),
        (lambda g: g["state"]["doors"].append([0, 0, 1, "x", "open"]), r"game.state.state.doors\[0\]\[3\]"),
        (lambda g: g["prompt"].update(kind="fly"), "game.state.prompt.kind: must be one of roll, choose"),
        (lambda g: g["prompt"].update(decider="referee"), "game.state.prompt.decider: must be one of players, gm"),
        (lambda g: g["prompt"].update(decider=True), "game.state.prompt.decider: expected a str"),
        (lambda g: g["prompt"].update(decider_text=None), "game.state.prompt.decider_text: expected a str"),
        (lambda g: g["prompt"]["options"][0].update(id=None), r"game.state.prompt.options\[0\].id: expected a str"),
        (lambda g: g["threatened"].update(knights=[[0, "a"]]), r"game.state.threatened.knights\[0\]"),
        (lambda g: g["history"][1].update(n=5), r"game.state.history\[0\].n: expected 2 \(entries are numbered"),
        (lambda g: g["history"][1]["events"].append({"kind": "x"}), r"game.state.history\[0\].events\[0\].text"),
    ],
)
def test_a_bad_field_is_refused_with_its_path(mutate: Mutation, expected: str) -> None:
    game = played()
    mutate(game)
    with pytest.raises(WireError, match=expected):
        GameStateMessage.from_json(update_json(game, history_from=2))


def test_the_rule_sets_own_fields_pass_whatever_they_hold() -> None:
    game = played()
    game["state"]["step"]["anything"] = {"the rule set's": [1, 2]}
    game["state"]["turn_sets"] = {"acted": ["goblin-1"], "charged": []}
    game["state"]["figures"]["goblin-1"]["stack"] = 3  # a field a newer engine adds is ignored
    assert GameStateMessage.from_json(update_json(game)).state["step"]["anything"] == {"the rule set's": [1, 2]}


def test_a_snapshot_reply_with_a_bad_game_is_refused() -> None:
    game = played()
    fields = {"last_seq": 5, "revision": 2, "game_id": 1, "scenario": {}, "game": game, "table": {}}
    assert wire.parse_reply(wire.encode_reply(True, None, cmd="snapshot", request_id=1, seq=5, engine_run="r",
                                              sent_at=1.0, **fields)).ok
    broken = copy.deepcopy(fields)
    broken["game"]["state"]["figures"]["bowman"]["alive"] = "yes"
    with pytest.raises(WireError, match=r"engine\.reply\.game\.state\.figures\.bowman\.alive"):
        wire.parse_reply(wire.encode_reply(True, None, cmd="snapshot", request_id=1, seq=5, engine_run="r",
                                           sent_at=1.0, **broken))


def test_an_update_builds_on_the_game_before_it_only() -> None:
    game = played()
    update = GameStateMessage.from_json(update_json(game, history_from=2))
    held = {**game, "history": game["history"][:1]}
    assert update.apply_to(held, 2) == game  # revision 3 builds on revision 2
    assert update.apply_to(held, 1) is None  # one in between was missed
    assert update.apply_to(None, None) is None
    assert update.apply_to({**game, "history": []}, 2) is None  # entries missing
    undo = GameStateMessage(8, 1.0, "run", 1, 4, game["state"], game["prompt"], game["threatened"], 2, ())
    assert undo.apply_to(game, 3) == {**game, "history": game["history"][:1]}
    whole = GameStateMessage.from_json(update_json(game, history_from=1))
    assert whole.apply_to(None, None) == game  # from the first entry: needs nothing held
