"""Objects on the board and the movement chart's actions on them: pick up (*1), drop (0), throw (*2), carry a
large object (1), examine (*2), push an object (2)."""

from __future__ import annotations

import pytest

from engine.actions import Choose, Roll
from engine.autoplay import AutoPlayer, play_out
from engine.errors import IllegalActionError, ScenarioError
from engine.events import Event
from engine.game import Game
from engine.prompts import PromptKind
from engine.rules.lost_worlds import combat, objects
from engine.rules.lost_worlds.condition import HP, MP, OFF_BALANCE
from engine.rules.lost_worlds.spaces import beyond
from engine.scenario import Scenario, load_scenario
from tests.lost_worlds.tower import changed, choose, foe, game, hero, label_of, options, toml_value, tower

ROW = """
0   0   0   0   0
  0   0   0   0
"""
FIELD = """
0   0   0
  0   0
0   0   0
  0   0
0   0   0
  0   0
0   0   0
  0   0
"""
STEPPED = """
0   0   0
  0   0
0   0   0
  0   0
0   0   0
  0   0
0   3   0
  0   0
"""


def thing(oid: str, at: str, name: str, **more: object) -> str:
    extra = "".join(f"{k} = {toml_value(v)}\n" for k, v in more.items())
    return f'[[objects]]\nid = "{oid}"\nname = "{name}"\nat = "{at}"\n{extra}\n'


def refused(g: Game, option: str) -> str:
    """The refusal's message of a choice the prompt does not offer."""
    assert option not in options(g)
    with pytest.raises(IllegalActionError) as err:
        g.apply(Choose(option))
    return str(err.value)


def set_points(g: Game, fid: str, points: int) -> None:
    g.state.figures[fid].values[MP] = points
    changed(g)


def refused_short_and_after_a_run(s: Scenario, option: str, points: int) -> tuple[str, str]:
    """The refusals of the hero's ``option``: in a new game with ``points`` movement points left, and in another
    new game after the hero runs."""
    g = game(s)
    set_points(g, "hero", points)
    short = refused(g, option)
    g = game(s)
    choose(g, "run")
    return short, refused(g, option)


# -- pick up (*1) and drop (0) ------------------------------------------------------------------------------------
def test_a_small_object_is_picked_up_from_ones_own_space_for_one_point() -> None:
    s = tower(ROW, (hero("A1"), foe("I1")), objects=thing("stone", "A1", "stone") + thing("cup", "C1", "cup"))
    g = game(s)
    assert "pick up the stone (1 MP, starred)" in label_of(g, "pickup-stone")
    assert "the cup lies at C1, not in Hero's space" in refused(g, "pickup-cup")
    choose(g, "pickup-stone")
    hero_state = g.state.figures["hero"]
    assert hero_state.carrying == ["stone"] and g.state.tokens["stone"] is None and hero_state.values[MP] == 3
    assert "pickup-stone" not in options(g)


def test_picking_up_is_refused_without_the_point_and_after_a_run() -> None:
    s = tower(ROW, (hero("A1"), foe("I1")), objects=thing("stone", "A1", "stone"))
    short, ran = refused_short_and_after_a_run(s, "pickup-stone", 0)
    assert "pick up costs 1 MP; 0 left" in short
    assert "pick up is starred: not in a turn Hero runs" in ran


def test_a_carried_object_is_dropped_for_nothing_on_any_space_of_the_battle_range() -> None:
    s = tower(ROW, (hero("A1"), foe("I1")), objects=thing("stone", "A1", "stone"))
    g = game(s)
    choose(g, "pickup-stone")
    b1 = s.board.from_label("B1")
    assert label_of(g, "dropw-stone-B1") == "drop the stone at B1 (0 MP)"
    assert "dropw-stone-E1" not in options(g)  # not in the battle range
    choose(g, "dropw-stone-B1")
    assert g.state.tokens["stone"] == b1 and g.state.figures["hero"].carrying == []
    assert g.state.figures["hero"].values[MP] == 3


# -- throw (*2) -----------------------------------------------------------------------------------------------
def _to_next_movement(g: Game) -> list[Event]:
    """Play the rest of the round with plain answers, up to the next round's initiative roll."""
    events: list[Event] = []
    first = g.state.round
    for _ in range(200):
        if g.state.round > first:
            return events
        p = g.prompt
        if p.kind is PromptKind.ROLL:
            events += g.apply(Roll(tuple(1 for _d in p.dice)))
            continue
        ids = options(g)
        pick = next((o for o in ("end", "keep", "pass") if o in ids), ids[-1])
        events += g.apply(Choose(pick))
    raise AssertionError("the round did not end")


def test_a_thrown_object_flies_until_the_next_movement_phase_then_lies_where_it_was_thrown() -> None:
    s = tower(ROW, (hero("A1"), foe("G1")), objects=thing("stone", "A1", "stone", weapon="rock"))
    g = game(s)
    choose(g, "pickup-stone")
    # 6 spaces: within height 4 + 2, beyond the rock's effective range of 4.
    assert "beyond its effective range: damage -1" in label_of(g, "throw-stone-foe")
    choose(g, "throw-stone-foe")
    assert g.state.figures["hero"].values[MP] == 1
    choose(g, "hit")
    assert "-1 beyond the effective range" in g.prompt.text
    choose(g, "3")
    foe_state = g.state.figures["foe"]
    assert foe_state.values[HP] == 12 - 2 and foe_state.flag(OFF_BALANCE)
    # In flight: neither carried nor on the board, until the next movement phase begins.
    assert g.state.tokens["stone"] is None and "stone" not in g.state.figures["hero"].carrying
    target = foe_state.hex
    events = _to_next_movement(g)
    landed = [e for e in events if e.kind == "landed"]
    assert landed and "The stone thrown by Hero lies at G1 now." in landed[0].text
    assert g.state.tokens["stone"] == target


def test_a_throw_within_the_effective_range_does_full_damage() -> None:
    s = tower(ROW, (hero("A1"), foe("E1")), objects=thing("stone", "A1", "stone", weapon="rock"))
    g = game(s)
    choose(g, "pickup-stone")
    assert "damage -1" not in label_of(g, "throw-stone-foe")
    choose(g, "throw-stone-foe")
    choose(g, "hit")
    choose(g, "3")
    assert g.state.figures["foe"].values[HP] == 12 - 3


def test_a_throw_is_refused_out_of_range_without_points_after_a_run_and_for_large_objects() -> None:
    s = tower(ROW, (hero("A1"), foe("I1")), objects=thing("stone", "A1", "stone") + thing("crate", "A1", "crate",
                                                                                          size="large"))
    g = game(s)
    choose(g, "pickup-stone")
    assert "Foe is 8 spaces away; the longest throw is 6" in refused(g, "throw-stone-foe")
    choose(g, "pickup-crate")
    g.state.put("foe", s.board.from_label("E1"))  # in range: only its size keeps the crate from being thrown
    changed(g)
    assert "throw-crate-foe" not in options(g)
    set_points(g, "hero", 1)
    assert "throw costs 2 MP; 1 left" in refused(g, "throw-stone-foe")
    g = game(s)
    g.state.put("foe", s.board.from_label("E1"))
    g.state.figures["hero"].carrying.append("stone")
    g.state.tokens["stone"] = None
    changed(g)
    choose(g, "run")
    assert "throw is starred: not in a turn Hero runs" in refused(g, "throw-stone-foe")


# -- carry a large object (1 a turn) ---------------------------------------------------------------------------
def test_carrying_a_large_object_costs_one_point_a_turn_on_the_first_step_and_one_at_a_time() -> None:
    s = tower(ROW, (hero("A1"), foe("I1")),
              objects=thing("barrel", "A1", "barrel", size="large") + thing("crate", "A1", "crate", size="large"))
    g = game(s)
    assert "large: carrying it costs 1 MP a turn" in label_of(g, "pickup-barrel")
    choose(g, "pickup-barrel")
    assert g.state.figures["hero"].values[MP] == 3
    assert "already carries a large object, the barrel" in refused(g, "pickup-crate")
    assert "carrying the barrel (+1 MP)" in label_of(g, "to-B1")
    assert "carrying the barrel: drop it to attack" in g.prompt.text
    choose(g, "to-B1")
    assert g.state.figures["hero"].values[MP] == 1  # 1 to move, 1 to carry
    assert "carrying" not in label_of(g, "to-C1")  # paid for this turn
    choose(g, "to-C1")
    assert g.state.figures["hero"].values[MP] == 0


def test_a_character_carrying_a_large_object_cannot_start_a_combat() -> None:
    s = tower(ROW, (hero("A1"), foe("B1")), objects=thing("barrel", "A1", "barrel", size="large"))
    g = game(s)
    assert ("hero", "foe") in combat.fights(g.rules, g.state)  # type: ignore[arg-type]
    choose(g, "pickup-barrel")
    assert ("hero", "foe") not in combat.fights(g.rules, g.state)  # type: ignore[arg-type]


# -- examine (*2) ----------------------------------------------------------------------------------------------
def test_examining_reads_the_scenarios_text_and_reveals_what_it_hides() -> None:
    s = tower(ROW, (hero("A1"), foe("I1")),
              objects=thing("chest", "A1", "chest", size="large", examine="a dagger under old rags", reveals="blade")
              + thing("blade", "A1", "old dagger", weapon="dagger", hidden=True) + thing("pot", "B1", "pot",
                                                                                        examine="empty"))
    g = game(s)
    assert "blade" not in g.state.tokens and "pickup-blade" not in options(g)
    assert label_of(g, "examine-chest") == "examine the chest (2 MP, starred)"
    assert "the pot lies at B1, not in Hero's space" in refused(g, "examine-pot")
    events = choose(g, "examine-chest")
    text = next(e.text for e in events if e.kind == "acted")
    assert "Hero examines the chest: a dagger under old rags; the old dagger is there now" in text
    assert g.state.tokens["blade"] == s.board.from_label("A1") and g.state.figures["hero"].values[MP] == 2
    assert "Hero has examined the chest already" in refused(g, "examine-chest")
    choose(g, "pickup-blade")
    assert "throw costs 2 MP; 1 left" in refused(g, "throw-blade-foe")  # a dagger is thrown: not with 1 point


def test_examining_is_refused_without_two_points_and_after_a_run() -> None:
    s = tower(ROW, (hero("A1"), foe("I1")), objects=thing("pot", "A1", "pot", examine="empty"))
    short, ran = refused_short_and_after_a_run(s, "examine-pot", 1)
    assert "examine costs 2 MP; 1 left" in short
    assert "examine is starred: not in a turn Hero runs" in ran


# -- push an object (2) ----------------------------------------------------------------------------------------
def test_a_push_moves_a_large_object_one_space_straight_away_for_two_points() -> None:
    s = tower(FIELD, (hero("C2"), foe("A1")), objects=thing("barrel", "C3", "barrel", size="large"))
    g = game(s)
    assert beyond(s.board.from_label("C2"), s.board.from_label("C3")) == s.board.from_label("C4")
    assert label_of(g, "pushobj-barrel") == "push the barrel from C3 to C4 (2 MP)"
    choose(g, "pushobj-barrel")
    assert g.state.tokens["barrel"] == s.board.from_label("C4") and g.state.figures["hero"].values[MP] == 2
    assert g.state.figures["hero"].hex == s.board.from_label("C2")


def test_a_push_is_refused_uphill_into_a_character_off_the_map_and_without_points() -> None:
    g = game(tower(STEPPED, (hero("C2"), foe("A1")), objects=thing("barrel", "C3", "barrel", size="large")))
    assert "C4 is higher than the barrel" in refused(g, "pushobj-barrel")
    s = tower(FIELD, (hero("C2"), foe("A1"), foe("E4", "Other")), objects=thing("barrel", "C3", "barrel",
                                                                                 size="large"))
    g = game(s)
    g.state.put("other", s.board.from_label("C4"))
    changed(g)
    assert "a character is at C4" in refused(g, "pushobj-barrel")
    g.state.put("other", s.board.from_label("E4"))
    set_points(g, "hero", 1)
    assert "push an object costs 2 MP; 1 left" in refused(g, "pushobj-barrel")
    g = game(tower(FIELD, (hero("C3"), foe("A1")), objects=thing("barrel", "C4", "barrel", size="large")))
    assert "nothing can stand beyond the barrel" in refused(g, "pushobj-barrel")


# -- the scenario ------------------------------------------------------------------------------------------------
def test_a_scenario_names_only_hidden_objects_as_revealed() -> None:
    with pytest.raises(ScenarioError, match="not a hidden object"):
        tower(ROW, (hero("A1"), foe("I1")), objects=thing("chest", "A1", "chest", examine="x", reveals="pot")
              + thing("pot", "B1", "pot"))


def test_the_ruined_tower_auto_game_uses_its_objects_and_ends_with_a_winner() -> None:
    texts = []
    for seed in (1, 2, 3):  # the auto player explores: a few seeds between them play every object
        g = Game(load_scenario("lost-worlds-ruined-tower"))
        assert set(objects.first_tokens(g.rules.objects)) == {"chest", "stone", "brick", "barrel"}  # type: ignore[attr-defined]
        steps = play_out(g, AutoPlayer(seed))
        texts += [e.text for step in steps for e in step.events]
        assert g.state.winner is not None
    assert any("examines the iron-bound chest" in t for t in texts)
    assert any("picks up the rusty dagger" in t for t in texts)
    assert any("throws the fallen brick" in t for t in texts)
    assert any("lies at" in t for t in texts)  # thrown things land at the next movement phase
