"""Snapshots are plain JSON and carry what a tablet draws."""

import json

from engine.actions import Roll
from engine.game import Game
from engine.scenario import load_scenario
from engine.snapshot import game_snapshot, scenario_to_dict, targets_to_list


def test_scenario_and_game_snapshots_are_json_and_complete() -> None:
    scenario = load_scenario("goblins-treasure")
    game = Game(scenario)
    game.apply(Roll((6, 2)))
    data = json.loads(json.dumps(scenario_to_dict(scenario, game.points())))
    assert data["points"] == {"adventurers": 6, "goblins": 6}
    assert {e["kind"] for e in data["board"]["edges"]} == {"wall", "door", "locked"}
    assert any("treasure" in t["tokens"] for t in data["board"]["tiles"])
    snap = json.loads(json.dumps(game_snapshot(game)))
    assert snap["prompt"]["kind"] == "choose" and snap["prompt"]["options"]
    assert snap["history"][0]["text"] == "roll 6 2"
    assert set(snap["threatened"]) == {"adventurers", "goblins"}


def test_targets_carry_the_verdict_and_the_blocker() -> None:
    game = Game(load_scenario("goblins-treasure"))
    infos = targets_to_list(game.targets("ranger"))
    assert infos and all(t["sight"] in ("clear", "blocked", "ambiguous") for t in infos)
    blocked = [t for t in infos if t["sight"] == "blocked"]
    assert blocked and blocked[0]["blocker"] is not None and "blocked by" in blocked[0]["reason"]
