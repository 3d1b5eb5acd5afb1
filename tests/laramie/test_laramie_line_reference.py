"""The line of fire against a plain reference, on random towns: each nudged line is found by clipping a
slightly shifted segment against the hexes near the cube-lerp line (tests/engine/nudged_reference.py) and
judged hex by hex as the rules say — houses and the station block, the lumber yard adds +2, a wall next to
the target is an obstacle, one on the shooter's own sides is fired over, any other blocks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board.hex import HexBoard
from engine.game import Game
from engine.hexes import DIRECTIONS, Edge, Hex, Orientation, edge, from_label, to_label
from engine.lines import Sight
from engine.rules.laramie.rules import Laramie
from engine.rules.laramie.sight import line_of_fire
from tests.engine.nudged_reference import nudged_way
from tests.laramie.town import set_unit, town

CENTRE = from_label("J5", Orientation.FLAT)
near = st.builds(Hex, st.integers(-3, 3), st.integers(-3, 3)).filter(lambda h: h.distance(Hex(0, 0)) <= 4)


def label(offset: Hex) -> str:
    return to_label(CENTRE + offset, Orientation.FLAT)


@st.composite
def towns(draw: st.DrawFn) -> tuple[dict[str, str], tuple[str, ...], Hex, Hex]:
    """Houses, station hexes, lumber yards and walls crowded round J5, and a shooter and a target among them."""
    cells = draw(st.dictionaries(near, st.sampled_from("HSL"), max_size=12))
    walls = draw(st.sets(st.tuples(near, st.integers(0, 5)), max_size=16))
    shooter, target = draw(near), draw(near)
    sides = {edge(h, h + DIRECTIONS[d]) for h, d in walls if (h + DIRECTIONS[d]).distance(Hex(0, 0)) <= 4}
    fences = tuple(sorted(f"{label(e.a)}|{label(e.b)}" for e in sides))
    return {label(h): k for h, k in cells.items()}, fences, shooter, target


def reference(board: HexBoard, a: Hex, b: Hex, way: int) -> tuple[bool, bool, bool]:
    """(blocked, lumber yard on the line, obstacle) of the line nudged ``way``, judged plainly."""
    lumber = obstacle = False
    for item in nudged_way(a, b, way):
        if isinstance(item, Hex):
            kind = board.terrain(item)
            if kind in ("house", "station"):
                return True, False, False
            lumber = lumber or kind == "lumber"
        elif board.edges.get(item) == "fence":
            assert isinstance(item, Edge)
            if b in (item.a, item.b):
                obstacle = True
            elif a not in (item.a, item.b):
                return True, False, False
    return False, lumber, obstacle


@settings(deadline=None, max_examples=60)  # no timing limits on a busy shared machine
@given(towns())
def test_the_line_of_fire_reads_as_the_two_nudged_reference_lines(drawn: tuple[dict[str, str], tuple[str, ...],
                                                                               Hex, Hex]) -> None:
    cells, fences, s, t = drawn
    game = Game(town({"gary": {"side": "a", "at": label(s)}, "jesse": {"side": "b", "at": label(t)}},
                     cells=cells, fences=fences))
    rules = game.rules
    assert isinstance(rules, Laramie)
    a, b = CENTRE + s, CENTRE + t
    line = line_of_fire(rules.board, a, b)
    if a == b:
        assert line.sight is Sight.CLEAR
        return
    want = sorted(reference(rules.board, a, b, way) for way in (+1, -1))
    assert sorted(r.verdict() for r in line.readings) == want
    both_blocked, both_clear = want[0][0] and want[1][0], not want[0][0] and not want[1][0]
    assert line.sight is (Sight.BLOCKED if both_blocked else Sight.CLEAR if both_clear else Sight.AMBIGUOUS)
    # The shot follows: never fired along a line blocked both ways; in doubt only when the readings differ.
    for d in range(6):
        set_unit(game, "gary", facing=d)
        shot = rules.normal(game.state, "gary", "jesse")
        if both_blocked:
            assert not shot.allowed
        if shot.in_doubt:
            assert want[0] != want[1]
