"""Flying, full flight, underwater movement judged by the start hex, indoors, and movement obstruction."""

from __future__ import annotations

from engine.actions import Choose, Move
from engine.hexes import Hex
from engine.rules.filtwiz import flight, water
from engine.rules.filtwiz.party import Affects
from engine.rules.filtwiz.rules import Filtwiz
from engine.rules.filtwiz.scenario_fields import Flight, Shape
from engine.rules.filtwiz.skills import Skill, use
from engine.rules.filtwiz.steps import ChooseAttack, MoveCharacter

from .boards import drawn, figure, with_figures
from .scenarios import scenario, started

# Columns A–G, rows 1–3 (odd-q drawing): A underwater column on the left, an indoor hex at G2.
RIVER = """
w   .   .   .
  .   .   .
w   .   .   i
  .   .   .
w   .   .   .
  .   .   .
"""


def test_full_flight_needs_range_ten_or_a_flying_attacker() -> None:
    assert not flight.can_attack(9, attacker_flies=False, target_airborne=True)
    assert flight.can_attack(10, attacker_flies=False, target_airborne=True)
    assert flight.can_attack(1, attacker_flies=True, target_airborne=True)
    assert flight.can_attack(1, attacker_flies=False, target_airborne=False)


def test_flying_does_nothing_indoors_or_underwater() -> None:
    for f in (Flight.FLYING, Flight.FULL):
        assert flight.flight_works(f, indoors=False, underwater=False)
        assert not flight.flight_works(f, indoors=True, underwater=False)
        assert not flight.flight_works(f, indoors=False, underwater=True)
    assert not flight.airborne(Flight.FLYING, False, False)  # ordinary flying waits on the ground
    assert flight.airborne(Flight.FULL, False, False)
    assert not flight.airborne(Flight.FULL, True, False) and not flight.airborne(Flight.FULL, False, True)
    assert flight.recovers_from_prone(Flight.FLYING, False, False)
    assert not flight.recovers_from_prone(Flight.FLYING, True, False)


def test_underwater_costs_five_movement_never_below_zero_and_abilities_spare_it() -> None:
    assert water.movement_allowance(7, started_underwater=True, exempt=False) == 2
    assert water.movement_allowance(3, started_underwater=True, exempt=False) == 0
    assert water.movement_allowance(7, started_underwater=True, exempt=True) == 7
    assert water.movement_allowance(7, started_underwater=False, exempt=False) == 7


FIGURES = """
[[figures]]
name = "Swimmer"
marker = 0
side = "explorers"
at = "A1"
movement = 7

[[figures]]
name = "Lizard"
marker = 1
side = "explorers"
at = "A3"
movement = 7
abilities = ["water_action"]

[[figures]]
name = "Harpy"
marker = 2
side = "bandits"
at = "G3"
flight = "full"

[[figures]]
name = "Chief"
marker = 3
side = "bandits"
at = "G2"
flight = "full"
"""


def test_the_underwater_penalty_is_judged_by_the_hex_the_turn_started_on() -> None:
    game = started(scenario(RIVER, FIGURES))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    game.apply(Choose("swimmer"))
    step = game.state.step
    assert isinstance(step, MoveCharacter) and step.allowance == 2  # started in A1, underwater
    game.apply(Move("swimmer", Hex(1, 0)))  # out of the water: still -5 this turn
    assert rules.allowance(game.state, "swimmer") == 2
    assert rules.situation(game.state).figures["swimmer"].underwater
    assert not isinstance(game.state.step, ChooseAttack)  # nobody in reach: its action is over
    lizard = game.state.step
    assert isinstance(lizard, MoveCharacter) and lizard.figure == "lizard" and lizard.allowance == 7


def test_full_flyers_are_out_of_reach_of_short_attacks_but_not_indoors() -> None:
    game = started(scenario(RIVER, FIGURES))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    sit = rules.situation(game.state)
    assert sit.figures["harpy"].airborne
    assert not sit.figures["chief"].airborne  # full flight does nothing indoors (G2)
    game.state.figures["swimmer"].hex = Hex(5, -1)  # next to both
    targets = {t.target: t for t in rules.targets(game.state, "swimmer")}
    assert not targets["harpy"].allowed and "full flight" in targets["harpy"].reason
    assert targets["chief"].allowed
    game.state.rulings["grounded:harpy"] = "yes"  # the GM brought it down
    assert {t.target for t in rules.targets(game.state, "swimmer") if t.allowed} == {"harpy", "chief"}


OBSTRUCTION = """
.   .   .   .
  .   .   .
.   .   .   .
  .   .   .
"""

WALKERS = """
[[figures]]
name = "Walker"
marker = 0
side = "explorers"
at = "A1"
movement = 6

[[figures]]
name = "Bird"
marker = 1
side = "explorers"
at = "A2"
movement = 6
flight = "flying"

[[figures]]
name = "Guard"
marker = 2
side = "bandits"
at = "D1"
"""


def test_movement_obstruction_stops_walkers_not_flyers() -> None:
    game = started(scenario(OBSTRUCTION, WALKERS))
    rules = game.rules
    guard = game.state.figures["guard"].hex
    assert guard is not None
    beyond = {h for h in game.scenario.board if h.distance(guard) >= 2 and h.q > guard.q}
    walker = rules.reachable(game.state, "walker")
    bird = rules.reachable(game.state, "bird")
    assert beyond and not beyond & set(walker)
    assert beyond & set(bird)
    for _h, reach in walker.items():  # every path stops at the first hex next to the guard
        assert all(p.distance(guard) > 1 for p in reach.path[:-1])
    assert guard not in walker and guard not in bird


def test_a_gm_mark_makes_a_hex_underwater_for_the_next_turn_that_starts_there() -> None:
    game = started(scenario(RIVER, FIGURES))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    lizard_start = game.state.figures["lizard"].hex
    harpy = game.state.figures["harpy"].hex
    assert harpy is not None and lizard_start is not None
    game.state.marks[harpy] = "underwater"  # as the GM's terrain op does
    assert not rules.situation(game.state).figures["harpy"].underwater  # its turn started on dry ground
    events: list[object] = []
    game.state.turn_order, game.state.active = [1, 0], 0  # the bandits' turn begins
    rules.begin_turn(game.state, events)  # type: ignore[arg-type]
    sit = rules.situation(game.state)
    assert sit.figures["harpy"].underwater and not sit.figures["harpy"].airborne
    assert rules.allowance(game.state, "harpy") == 0  # 5 movement, -5


def test_a_flyer_gets_up_from_prone_at_the_start_of_its_turn_but_not_indoors() -> None:
    game = started(scenario(RIVER, FIGURES))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    game.state.turn_sets["prone"] = ["harpy", "chief"]
    events: list[object] = []
    game.state.turn_order, game.state.active = [1, 0], 0
    rules.begin_turn(game.state, events)  # type: ignore[arg-type]
    assert game.state.turn_sets["prone"] == ["chief"]  # the chief stands indoors (G2): it must get up itself
    assert rules.allowance(game.state, "chief") == 0


def test_nothing_of_range_under_ten_reaches_a_full_flyer_of_either_side() -> None:
    """Third reading: an "everyone" (敵味方全員) area or fan of range under 10 passes a friend up in full flight by
    as it passes an enemy; range 10, or a flying user, reaches both."""
    m, sit = drawn(
        """
        . . . . .
        . F S E .
        . * . T .
        """
    )
    user = figure("user", m.one("S"), side="us")
    friend = figure("friend", m.one("F"), side="us", flight=Flight.FULL)  # no party: an everyone area means it
    foe = figure("foe", m.one("E"), flight=Flight.FULL)
    walker = figure("walker", m.one("*"), side="us")
    grounded = figure("grounded", m.one("T"))
    sit = with_figures(sit, user, friend, foe, walker, grounded)
    for shape, reach in ((Shape.AREA, 3), (Shape.SELF, 0)):
        short = Skill(shape, reach=reach, size=2, affects=Affects.EVERYONE)
        u = use(sit, user, short, m.one("S") if shape is Shape.AREA else None)
        assert {f.id for f in u.hit} == {"walker", "grounded"}, shape
        assert "full flight" in u.spared["friend"] and "full flight" in u.spared["foe"]
    for d in range(6):
        u = use(sit, user, Skill(Shape.FAN, reach=4, affects=Affects.EVERYONE), direction=d)
        assert not {"friend", "foe"} & {f.id for f in u.hit}, d
    far = use(sit, user, Skill(Shape.AREA, reach=10, size=2, affects=Affects.EVERYONE), m.one("S"))
    assert {f.id for f in far.hit} == {"friend", "foe", "walker", "grounded"}
    flyer = figure("user", m.one("S"), side="us", flight=Flight.FLYING)
    aloft = use(with_figures(sit, flyer, friend, foe, walker, grounded), flyer,
                Skill(Shape.SELF, reach=0, size=2, affects=Affects.EVERYONE))
    assert {f.id for f in aloft.hit} == {"friend", "foe", "walker", "grounded"}
