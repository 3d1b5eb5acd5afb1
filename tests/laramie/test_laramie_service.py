"""The station duel through a real engine service: a separate process started with laramie-station, played by
commands to a victory; the to-hit query, the badges and a turn by a ``face`` command on the wire."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine.service.client import EngineClient
from tests.service.engine_tablet import act, game_of, tablet_on
from tests.waiting import WAIT_S


@pytest.fixture()
def tablet() -> Iterator[EngineClient]:
    with tablet_on("laramie-station") as client:
        yield client


def distance(a: list[int], b: list[int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def answer(prompt: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """A plain policy: close in on the enemy's leader, fire at him first, roll low (a natural 1 always works)."""
    if prompt["kind"] == "roll":
        return {"kind": "roll", "values": [i + 1 for i in range(len(prompt["dice"]))]}
    if prompt["kind"] == "remove":
        return {"kind": "remove", "figure": prompt["figure"]}
    if prompt["kind"] == "move":
        me = state["figures"][prompt["figure"]]
        aim = state["figures"]["jesse" if me["side"] == "sheriffs" else "gary"]["hex"]
        best = min(prompt["moves"], key=lambda m: (distance(m["hex"], aim), m["cost"]))
        return {"kind": "move", "figure": prompt["figure"], "to": best["label"]}
    ids = [o["id"] for o in prompt["options"]]
    for wanted in ("fire:jesse", "fire:gary"):
        if wanted in ids:
            return {"kind": "choose", "option": wanted}
    pick = next((i for i in ids if i.startswith(("fire:", "melee:"))), None)
    pick = pick or next(i for i in ids if not i.startswith("suppress:"))
    return {"kind": "choose", "option": pick}


def test_the_engine_serves_the_station_duel_and_a_game_is_played_by_commands_to_a_victory(
        tablet: EngineClient) -> None:
    assert tablet.scenario is not None and tablet.scenario["ruleset"] == "laramie"
    assert tablet.scenario["uses_facing"] is True and tablet.scenario["one_figure_per_cell"] is False
    gary = next(f for f in tablet.scenario["figures"] if f["id"] == "gary")
    assert (gary["hero"], gary["combat"], gary["weapon"]) == (True, 8, "Colt Peacemaker")
    assert {q["name"] for q in tablet.scenario["queries"]} == {"reachable", "to_hit"}
    texts: list[str] = []
    for _ in range(1500):
        game = game_of(tablet)
        if game["prompt"]["kind"] == "game_over":
            break
        texts += [e["text"] for e in act(tablet, answer(game["prompt"], game["state"]))]
    game = game_of(tablet)
    assert game["state"]["winner"] == "sheriffs", texts[-20:]
    assert "Sheriffs win: Jesse is brought down" in texts
    assert not game["state"]["figures"]["jesse"]["alive"]


def test_the_to_hit_query_the_badges_and_a_face_command(tablet: EngineClient) -> None:
    badges = game_of(tablet)["state"]["figures"]["gary"]["badges"]
    assert badges == ["[N] normal", "HP 6", "[*] hero"]
    assert act(tablet, {"kind": "face", "figure": "jesse", "direction": 0})[0]["text"].startswith("Jesse faces ")
    reply = tablet.request("query", WAIT_S, what="to_hit", figure="gary")
    assert reply.ok, reply.error
    lines = reply.fields["overlay"]["lines"]
    assert {line["target"] for line in lines} == {"jesse", "joe", "john", "tony", "tom", "thomas", "jeff"}
    assert all("range" in line["text"] for line in lines)
