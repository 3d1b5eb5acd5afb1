"""Table → map registration in the engine: anchors, identity fallback, confirmed drift, manual registration."""

from __future__ import annotations

import math

import numpy as np

from engine.scenario import load_scenario
from engine.service.map_registration import MapRegistration
from engine.wire import TableMessage
from tests.service.conftest import START, Rig, map_to_table


def anchors_at(reg: MapRegistration, shift: float = 0.0) -> dict[int, tuple[float, float]]:
    return {tag: map_to_table(x + shift, y) for tag, (x, y) in reg.expected.items()}


def test_without_anchors_in_view_the_identity_is_used_and_said() -> None:
    reg = MapRegistration(load_scenario("tutorial"))
    status = reg.status()
    assert status["mode"] == "identity" and status["ok"] is False and "identity" in status["text"]
    assert np.allclose(reg.to_map(np.array([[10.0, 20.0]])), [[10.0, 20.0]])


def test_anchors_register_a_turned_and_shifted_map() -> None:
    reg = MapRegistration(load_scenario("tutorial"))
    reg.update(anchors_at(reg))
    status = reg.status()
    assert status["mode"] == "anchors" and status["ok"] and status["residual_mm"] < 0.01
    x, y = reg.scenario.layout.hex_to_mm(next(iter(reg.scenario.board.tiles)))
    assert np.allclose(reg.to_map(np.array([map_to_table(x, y)])), [[x, y]], atol=1e-6)


def test_a_moved_map_is_taken_after_confirmation_even_when_the_anchors_then_hold_still() -> None:
    reg = MapRegistration(load_scenario("tutorial"))
    reg.update(anchors_at(reg))
    moved = anchors_at(reg, shift=50.0)  # the board bumped by a whole hex
    for _ in range(5):
        reg.update(moved)
    assert reg.last_drift is not None and math.isclose(reg.last_drift.max_mm, 50.0, rel_tol=1e-3)
    x, y = reg.expected[90]
    assert np.allclose(reg.to_map(np.array([map_to_table(x + 50.0, y)])), [[x, y]], atol=1e-6)


def test_manual_registration_replaces_the_identity_and_clears_the_desync(rig: Rig) -> None:
    rig.cameras[0].anchors = False
    table = rig.show(START, lambda m: isinstance(m, TableMessage) and len(m.desync) > 0)
    assert isinstance(table, TableMessage) and table.registration["mode"] == "identity"
    # A hex is a label or [q, r] (A4 is [0, 3]), as everywhere a command names a hex.
    points = [{"hex": "A2", "figure": "swordsman"}, {"hex": [0, 3], "figure": "spearman"},
              {"hex": "G2", "figure": "goblin-1"}]
    fields = rig.act("register_manual", points=points)
    assert fields["residual_mm"] < 1.0
    rig.show(START, lambda m: isinstance(m, TableMessage) and m.registration["mode"] == "manual" and not m.desync)
    reply = rig.tablet.request("register_manual", points=points[:2])
    assert not reply.ok and "three named hexes" in (reply.error or "")


def test_a_zone_mat_registers_from_its_printed_corner_tags_in_zones() -> None:
    import tests.engine.zone_rules  # noqa: F401 - registers the zone test rule set
    from engine.board.zones.board import ZoneBoard
    from engine.scenario import load_scenario_text
    from tests.engine.zone_rules import KEYPAD
    from tests.rulesets import ZONES_SCENARIO

    scenario = load_scenario(str(ZONES_SCENARIO))
    board = scenario.board
    assert isinstance(board, ZoneBoard)
    reg = MapRegistration(scenario)
    assert reg.expected == board.mat_anchors_mm() and reg.anchor_ids == (90, 91, 92, 93)
    assert "printed on the board" in reg.status()["text"]
    reg.update(anchors_at(reg))
    status = reg.status()
    assert status["mode"] == "anchors" and status["ok"] and "not seen" not in status["text"]
    five = board.centre_mm(board.from_label("5"))
    assert np.allclose(reg.to_map(np.array([map_to_table(*five)])), [five])
    # A corner tag a zone away from its place (the sheet torn?) is far beyond a quarter of a zone: left out.
    seen = anchors_at(reg)
    seen[93] = (seen[93][0] + board.zone_mm, seen[93][1])
    reg = MapRegistration(scenario)
    reg.update(seen)
    assert reg.current is not None and reg.current.outliers == (93,) and "93 do not fit" in reg.status()["text"]
    named = MapRegistration(load_scenario_text(KEYPAD))  # the scenario's own anchors replace the mat's
    assert named.anchor_ids == (94,) and "on their zones" in named.status()["text"]
