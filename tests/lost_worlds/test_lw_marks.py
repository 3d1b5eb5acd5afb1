"""Figure values, the core's place for a rule set's own flags and counters: saved, sent, shown as badges."""

from __future__ import annotations

from engine.hexes import Hex
from engine.rules.lost_worlds.condition import badges
from engine.state import FigureState, GameState
from engine.wire.game_state import STATE


def test_values_round_trip_and_older_states_have_none() -> None:
    fig = FigureState("dwarf", "a", Hex(0, 0))
    fig.mark("off-balance", True)
    fig.values["hp"] = 7
    again = FigureState.from_dict(fig.to_dict())
    assert again.values == {"off-balance": True, "hp": 7} and again.flag("off-balance")
    old = fig.to_dict()
    del old["values"]
    assert FigureState.from_dict(old).values == {}
    fig.mark("off-balance", False)
    assert "off-balance" not in fig.values and not fig.flag("off-balance")


def test_a_state_with_values_passes_the_wire_schema() -> None:
    fig = FigureState("dwarf", "a", Hex(0, 0), values={"hp": 3, "down": True})
    state = GameState("s", "lost-worlds", {"dwarf": fig}, {}, {})
    STATE.check(state.to_dict(), "state")


def test_the_tablet_shows_flags_by_name_and_counters_with_their_value() -> None:
    fig = FigureState("dwarf", "a", Hex(0, 0), values={"hp": 7, "off-balance": True, "gone": False})
    assert badges(fig) == ("hp 7", "off-balance")
    assert badges(FigureState("troll", "b", Hex(1, 0))) == ()
