"""War cry (鼓咆, the original's Q&A): the zones a war leader's call reaches by its radius (third reading) — 6 m its
zone and the zones beside it, 10 m its zone and every adjacent zone, 15 m the GM rules "adjacent plus one more zone"
(the adjacent zones offered first), 20 m and more all nine — and whom it reaches: the war leader's side there."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Choose
from engine.board.zones.board import ZoneBoard, keypad_board
from engine.hexes import Hex
from engine.rules.tenkey import war_cry
from engine.rules.tenkey.steps import AreaRuling, ChooseAction

from .tenkey_scenarios import act, game, option_ids

BOARD = keypad_board()


def z(label: str) -> Hex:
    return BOARD.from_label(label)


def names(zones: tuple[Hex, ...]) -> str:
    return "".join(sorted(BOARD.label(h) for h in zones))


def test_the_originals_table_of_radii() -> None:
    assert names(war_cry.war_cry(BOARD, z("2"), 6).zones) == "123"  # 軍師の横に隣接するマス
    assert names(war_cry.war_cry(BOARD, z("1"), 6).zones) == "12"  # clipped at the mat's edge
    assert names(war_cry.war_cry(BOARD, z("5"), 6).zones) == "456"
    assert names(war_cry.war_cry(BOARD, z("1"), 10).zones) == "1245"  # 軍師が隣接するマス全て
    assert names(war_cry.war_cry(BOARD, z("2"), 10).zones) == "123456"
    assert names(war_cry.war_cry(BOARD, z("5"), 10).zones) == "123456789"
    for leader in "1258":
        assert names(war_cry.war_cry(BOARD, z(leader), 20).zones) == "123456789"  # 9マス全て
        assert names(war_cry.war_cry(BOARD, z(leader), 40).zones) == "123456789"  # これ以上の半径も
        assert names(war_cry.war_cry(BOARD, z(leader), 3, everywhere=True).zones) == "123456789"  # 推奨
    assert names(war_cry.war_cry(BOARD, z("5"), 4).zones) == "5"  # below the table: its own zone


def test_fifteen_metres_is_the_gms_ruling_with_the_adjacent_zones_first() -> None:
    cry = war_cry.war_cry(BOARD, z("1"), 15)
    assert cry.gm_rules and names(cry.zones) == "1245"
    assert [(BOARD.label(extra), names(zones)) for extra, zones in war_cry.one_more(BOARD, cry)] == [
        ("7", "12457"), ("8", "12458"), ("9", "12459"), ("6", "12456"), ("3", "12345")]
    assert not war_cry.war_cry(BOARD, z("5"), 15).gm_rules  # every zone is adjacent already: nothing to rule
    assert not war_cry.war_cry(BOARD, z("1"), 10).gm_rules and not war_cry.war_cry(BOARD, z("1"), 20).gm_rules


def test_a_war_leader_calls_once_a_turn_its_side_in_reach_hears_and_it_may_still_act() -> None:
    g = game([("lea", "party", "1", {"war_cry_radius": 10}), ("ann", "party", "5", {}), ("bob", "party", "3", {}),
              ("orc", "band", "4", {}), ("imp", "band", "9", {})])
    act(g, "lea", "stay")
    assert "war_cry" in option_ids(g)
    offered = g.prompt.option("war_cry")
    assert offered is not None and "radius 10 m: 4, 5, 1 and 2" in offered.label  # top row first
    played = g.apply(Choose("war_cry"))
    (called,) = [e for e in played if e.kind == "war_cry"]
    assert called.data["heard"] == ["ann", "lea"]  # its side in 1, 2, 4, 5: not Bob in 3, never the orc in 4
    assert "Apply its effect as your game says" in called.text
    assert isinstance(g.state.step, ChooseAction) and "war_cry" not in option_ids(g)  # once a turn; it may act on
    act(g, "none")


def test_a_fifteen_metre_war_cry_asks_the_gm_and_the_ruling_decides_who_hears() -> None:
    g = game([("lea", "party", "1", {"war_cry_radius": 15}), ("ann", "party", "9", {}), ("bob", "party", "2", {}),
              ("orc", "band", "8", {})])
    act(g, "lea", "stay", "war_cry")
    assert isinstance(g.state.step, AreaRuling) and g.state.step.effect == "war_cry"
    assert g.prompt.gm and option_ids(g)[0] == "around" and option_ids(g)[-1] == "all"
    assert "more:9" in option_ids(g) and "one more" in g.prompt.text
    played = g.apply(Choose("more:9"))
    (called,) = [e for e in played if e.kind == "war_cry"]
    assert called.data["heard"] == ["ann", "lea", "bob"]
    assert not g.prompt.gm and isinstance(g.state.step, ChooseAction)


def test_the_originals_recommendation_reaches_every_zone() -> None:
    g = game([("lea", "party", "1", {"war_cry_radius": 6}), ("ann", "party", "9", {}), ("orc", "band", "8", {})],
             options={"war_cry_everywhere": True})
    act(g, "lea", "stay")
    played = g.apply(Choose("war_cry"))
    assert [e.data["heard"] for e in played if e.kind == "war_cry"] == [["ann", "lea"]]


# -- against a plain reference: zones counted by king's steps on any mat (the original allows 5×5) -------------
def _reference(board: ZoneBoard, leader: Hex, radius: float) -> set[Hex]:
    """Breadth-first over the mat: 6 m one step sideways, 10 m (and 15 m's default) one step any way, 20 m every
    zone; below 6 m the leader's own zone."""
    if radius >= 20:
        return set(board)
    if radius >= 10:
        steps = [(dq, dr) for dq in (-1, 0, 1) for dr in (-1, 0, 1)]
    elif radius >= 6:
        steps = [(-1, 0), (0, 0), (1, 0)]
    else:
        steps = [(0, 0)]
    return {Hex(leader.q + dq, leader.r + dr) for dq, dr in steps} & set(board)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=6), st.integers(min_value=1, max_value=6), st.data(),
       st.floats(min_value=0, max_value=40, allow_nan=False))
def test_war_cry_zones_agree_with_a_plain_reference_on_any_mat(cols: int, rows: int, data: st.DataObject,
                                                              radius: float) -> None:
    board = ZoneBoard({Hex(c, r): f"{c}-{r}" for c in range(cols) for r in range(rows)}, 60.0, (0.0, 0.0))
    leader = data.draw(st.sampled_from(sorted(board)))
    cry = war_cry.war_cry(board, leader, radius)
    assert set(cry.zones) == _reference(board, leader, radius)
    assert cry.gm_rules == (15 <= radius < 20 and len(cry.zones) < len(board))
    for extra, zones in war_cry.one_more(board, cry):
        assert set(zones) == set(cry.zones) | {extra} and extra not in cry.zones


def test_the_war_cry_speaks_japanese() -> None:
    from engine.i18n import speaking

    g = game([("lea", "party", "1", {"war_cry_radius": 15}), ("ann", "party", "5", {}), ("orc", "band", "8", {})])
    act(g, "lea", "stay", "war_cry")
    with speaking("ja"):
        prompt = g.rules.prompt(g.state)
        assert prompt.text == "Leaの半径15mの鼓咆は1に隣接するマスに加えて、更に1マスに及ぶ：どのマス？"
        assert prompt.options[0].label == "軍師のマスと隣接するすべてのマス：4、5、1、2"
        played = g.apply(Choose("around"))
    assert any("鼓咆" in e.text for e in played)
