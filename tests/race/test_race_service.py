"""Race through a real engine service: a separate process started with race.toml, played by commands to a winner."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from engine.service.client import EngineClient
from tests.race.conftest import RACE_TOML
from tests.service.engine_tablet import act, prompt_of, tablet_on
from tests.waiting import WAIT_S


@pytest.fixture()
def tablet(race_loaded: None) -> Iterator[EngineClient]:
    with tablet_on(str(RACE_TOML)) as client:  # inherits HEXA_RULESETS from this process
        yield client


def test_the_engine_serves_race_and_a_game_is_played_by_commands_to_a_winner(tablet: EngineClient) -> None:
    assert tablet.scenario is not None and tablet.scenario["ruleset"] == "race"
    strides = {f["id"]: f["stride"] for f in tablet.scenario["figures"]}  # its own figure field, on the wire
    assert strides == {"dash": 1, "pip": 0, "zip": 1, "bolt": 0}
    assert act(tablet, {"kind": "roll", "values": [5, 2]})[-1]["text"] == "Round 1: Red's turn."
    texts: list[str] = []
    for _ in range(60):
        prompt = prompt_of(tablet)
        if prompt["kind"] == "game_over":
            break
        if prompt["kind"] == "roll":
            events = act(tablet, {"kind": "roll", "values": [6]})
        elif prompt["kind"] == "choose":
            events = act(tablet, {"kind": "choose", "option": prompt["options"][0]["id"]})
        else:  # run as far east as the prompt allows, named by the hex label as a tablet may
            furthest = max(prompt["moves"], key=lambda m: (m["hex"][0], -m["cost"]))
            events = act(tablet, {"kind": "move", "figure": prompt["figure"], "to": furthest["label"]})
        texts += [e["text"] for e in events]
    game = tablet.request("snapshot", WAIT_S).fields["game"]
    winner = game["state"]["winner"]
    assert winner in ("red", "blue"), texts
    assert re.fullmatch(f"{winner.capitalize()} wins: (Dash|Pip|Zip|Bolt) reaches the exit M[135]", texts[-1])
    assert prompt_of(tablet)["kind"] == "game_over"


def test_a_blocked_run_is_refused_with_the_reason_and_the_engine_plays_on(tablet: EngineClient) -> None:
    act(tablet, {"kind": "roll", "values": [5, 2]})
    act(tablet, {"kind": "roll", "values": [1]})
    act(tablet, {"kind": "choose", "option": "dash"})
    reply = tablet.request("action", WAIT_S, action={"kind": "move", "figure": "dash", "to": "E1"})
    assert not reply.ok and "Dash cannot get to E1: rock or walls are in the way" in str(reply.error)
    reach = tablet.request("query", WAIT_S, what="reachable", figure="dash")
    assert reach.ok and max(m["cost"] for m in reach.fields["moves"]) == 2  # 1 rolled + Dash's stride
    assert act(tablet, {"kind": "move", "figure": "dash", "to": "B1"})[0]["text"] == "Dash runs from A1 to B1."
