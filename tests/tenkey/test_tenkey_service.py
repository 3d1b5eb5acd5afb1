"""Tenkey battle through a real engine service: a separate process serving the skirmish, played by commands."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.service.client import EngineClient
from tests.service.engine_tablet import act, prompt_of, tablet_on
from tests.waiting import WAIT_S


@pytest.fixture()
def tablet() -> Iterator[EngineClient]:
    with tablet_on("tenkey-skirmish") as client:
        yield client


def test_the_engine_serves_the_skirmish_and_its_queries(tablet: EngineClient) -> None:
    scenario = tablet.scenario
    assert scenario is not None and scenario["ruleset"] == "tenkey"
    tiles = {t["label"]: t for t in scenario["board"]["tiles"]}
    assert tiles["5"]["terrain"] == "obstacle" and tiles["5"]["style"] == "rough"
    assert {f["id"]: f["abilities"] for f in scenario["figures"]}["wren"] == ["hawk_eye", "precise_shooting"]
    act(tablet, {"kind": "choose", "option": "0"})
    reply = tablet.request("query", WAIT_S, what="targets", figure="odo")  # Brother Odo in 2, no Hawk Eye
    assert reply.ok, reply.error
    overlay = reply.fields["overlay"]
    verdicts = {line["target"]: (line["verdict"], line["text"]) for line in overlay["lines"]}
    assert verdicts["ash"][0] == "clear"  # 2→4: adjacent diagonal, 10 m
    assert verdicts["pell"][0] == "blocked"  # 2→7 passes 4, where Spearman Ash stands, or the pillar in 5
    assert verdicts["varg"][0] == "blocked" and "in 5" in verdicts["varg"][1]  # 2→8 past the pillar
    seer = tablet.request("query", WAIT_S, what="targets", figure="wren").fields["overlay"]  # Hawk Eye, in 1
    assert {line["target"]: line["verdict"] for line in seer["lines"]}["varg"] == "clear"


def test_a_game_is_played_by_commands_to_a_winner(tablet: EngineClient) -> None:
    act(tablet, {"kind": "choose", "option": "0"})
    texts: list[str] = []
    for _ in range(400):
        prompt = prompt_of(tablet)
        if prompt["kind"] == "game_over":
            break
        if prompt["kind"] == "remove":
            events = act(tablet, {"kind": "remove", "figure": prompt["figure"]})
        elif prompt["kind"] == "choose":
            events = act(tablet, {"kind": "choose", "option": prompt["options"][0]["id"]})
        else:  # walk towards the other side's rows
            mover = prompt["figure"]
            up = mover in ("garrick", "wren", "ilse", "odo")
            best = min(prompt["moves"], key=lambda m: (m["hex"][1] if up else -m["hex"][1], m["cost"]))
            events = act(tablet, {"kind": "move", "figure": mover, "to": best["hex"]})
        texts += [e["text"] for e in events]
    game = tablet.request("snapshot", WAIT_S).fields["game"]
    assert game["state"]["winner"] in ("party", "band"), texts[-20:]
    assert any(t.endswith("wins: every enemy is down") for t in texts)
    assert any("hit points" in t for t in texts)
