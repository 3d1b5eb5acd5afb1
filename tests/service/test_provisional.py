"""A figure still in the hand over a cell gets a provisional verdict (the tablet's ghost); settling there confirms it.

Through the real engine sockets: a test camera publishes goblin-1 ``moving`` (in view, in a hand) over F2, then
settled there; another time over C2, out of its reach."""

from __future__ import annotations

from collections.abc import Callable

from engine.wire import EngineMessage, GameEventsMessage, GameStateMessage, TableMessage
from tests.service.conftest import START, Rig, goblin_to_move
from tests.waiting import WAIT_S


def provisional_is(expected: dict[str, object] | None) -> Callable[[EngineMessage], bool]:
    def holds(m: EngineMessage) -> bool:
        if not isinstance(m, TableMessage):
            return False
        if expected is None:
            return m.provisional is None
        return m.provisional is not None and all(m.provisional.get(k) == v for k, v in expected.items())
    return holds


def test_a_figure_in_the_hand_over_a_legal_hex_shows_a_ghost_verdict_and_settling_confirms_it(rig: Rig) -> None:
    goblin_to_move(rig)
    rig.show(START, lambda m: isinstance(m, TableMessage) and m.registration["mode"] == "anchors" and not m.desync)
    held = {**START, "goblin-1": "F2"}
    ghost = rig.show(held, provisional_is({"figure": "goblin-1", "to": [5, -1], "legal": True}),
                     states={"goblin-1": "moving"})
    assert isinstance(ghost, TableMessage) and ghost.provisional is not None
    assert ghost.provisional["to_label"] == "F2" and ghost.provisional["reason"] == ""
    assert rig.game()["state"]["figures"]["goblin-1"]["hex"] == [6, -2]  # provisional: nothing played yet
    assert len(rig.game()["history"]) == 4
    events = rig.show(held, lambda m: isinstance(m, GameEventsMessage) and m.source == "camera")
    assert isinstance(events, GameEventsMessage) and events.action == "move goblin-1 F2"
    state = rig.tablet.wait_for(b"game.state", WAIT_S)
    assert isinstance(state, GameStateMessage) and state.state["figures"]["goblin-1"]["hex"] == [5, -1]
    rig.show(held, provisional_is(None))  # confirmed: the ghost is gone, the figure stands there


def test_a_figure_in_the_hand_over_an_unreachable_hex_gets_the_rules_reason_and_nothing_is_refused_yet(
        rig: Rig) -> None:
    goblin_to_move(rig)
    rig.show(START, lambda m: isinstance(m, TableMessage) and m.registration["mode"] == "anchors" and not m.desync)
    ghost = rig.show({**START, "goblin-1": "C2"}, provisional_is({"figure": "goblin-1", "legal": False}),
                     states={"goblin-1": "moving"})
    assert isinstance(ghost, TableMessage) and ghost.provisional is not None
    assert ghost.provisional["reason"] == "C2 is 4 hexes away by the shortest open way; Goblin may move 2"
    assert ghost.illegal is None  # only a figure put down is refused
    rig.show(START, provisional_is(None))  # put back where it stood: no verdict, no move
    assert len(rig.game()["history"]) == 4
