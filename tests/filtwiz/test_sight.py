"""Strict line of sight: through a blocking hex even slightly blocks; touching only an edge or a corner does not.
And which sight each shape needs: a target, an area's chosen hex, each target of a fan, nothing around oneself."""

from __future__ import annotations

from engine.board import EdgeKind, Terrain
from engine.board.hex import board_from
from engine.hexes import Edge, Hex, edge, hexes_within
from engine.lines import sight_line
from engine.rules.filtwiz.party import Affects
from engine.rules.filtwiz.scenario_fields import Shape
from engine.rules.filtwiz.sight import SightJudge
from engine.rules.filtwiz.situation import Situation
from engine.rules.filtwiz.skills import Skill, use
from tests.engine.ascii_map import AsciiMap, parse

from .boards import drawn, figure, with_figures

OPEN = set(hexes_within(Hex(0, 0), 6))


def judge(blocking: set[Hex], walls: frozenset[Edge] = frozenset()) -> SightJudge:
    edges = dict.fromkeys(walls, EdgeKind.WALL)
    board = board_from(OPEN, terrain=dict.fromkeys(blocking, Terrain.BLOCKING), edges=edges)
    return SightJudge(board)


def test_a_line_through_a_blocking_hex_is_blocked() -> None:
    m, sit = drawn(
        """
        S . # . T
        . . . . .
        """
    )
    a, b = m.one("S"), m.one("T")
    assert not sit.sight.sees(a, b)
    assert sit.sight.line(a, b).blocker == m.one("#")


def test_passing_just_inside_a_corner_of_a_blocking_hex_blocks() -> None:
    # From Hex(0, 0) to Hex(3, 1) the line cuts a sliver of Hex(1, 1) and of Hex(2, 0): either one blocks.
    line = sight_line(Hex(0, 0), Hex(3, 1))
    slivers = line.crossed_hexes - {Hex(0, 0), Hex(3, 1)}
    for h in slivers:
        assert not judge({h}).sees(Hex(0, 0), Hex(3, 1)), h


def test_running_along_the_edge_between_two_blocking_hexes_is_allowed() -> None:
    m = parse(
        """
        S # .
        # T .
        . . .
        """
    )
    sj = judge(m.where("#"))
    assert sight_line(m.one("S"), m.one("T")).grazed_hexes == m.where("#")
    assert sj.sees(m.one("S"), m.one("T"))
    assert sj.sees(m.one("T"), m.one("S"))


def test_touching_only_a_corner_is_allowed() -> None:
    # The line Hex(0, 0) → Hex(4, 1) passes exactly through a corner of Hex(1, 1).
    assert Hex(1, 1) in sight_line(Hex(0, 0), Hex(4, 1)).grazed_hexes
    assert judge({Hex(1, 1)}).sees(Hex(0, 0), Hex(4, 1))
    # ... but a hex the line enters on that route blocks.
    inner = next(iter(sight_line(Hex(0, 0), Hex(4, 1)).crossed_hexes - {Hex(0, 0), Hex(4, 1)}))
    assert not judge({inner}).sees(Hex(0, 0), Hex(4, 1))


def test_the_ends_never_block_and_walls_on_crossed_sides_do() -> None:
    assert judge({Hex(0, 0), Hex(3, 0)}).sees(Hex(0, 0), Hex(3, 0))
    wall = edge(Hex(1, 0), Hex(2, 0))
    assert not judge(set(), frozenset({wall})).sees(Hex(0, 0), Hex(3, 0))
    along = edge(Hex(2, 1), Hex(1, 2))  # a side the line (0,0)→(2,2) runs along: touching only
    assert judge(set(), frozenset({along})).sees(Hex(0, 0), Hex(2, 2))


def test_the_gms_verdict_overrides_the_geometry_either_way_round() -> None:
    m, sit = drawn(
        """
        S . # . T
        """
    )
    a, b = m.one("S"), m.one("T")
    label = sit.board.label
    ruled = SightJudge(sit.board, {}, {f"sight:{label(b)}:{label(a)}": "clear"})
    assert ruled.sees(a, b) and ruled.sees(b, a)
    near = Hex(2, 0)
    assert sit.sight.sees(a, near)
    assert not SightJudge(sit.board, {}, {f"sight:{label(a)}:{label(near)}": "blocked"}).sees(a, near)


def _position(text: str) -> tuple[AsciiMap, Situation]:
    m, sit = drawn(text)
    user = figure("user", m.one("S"), side="friends", party="p")
    foes = [figure(f"e{i}", h) for i, h in enumerate(sorted(m.where("E")))]
    friends = [figure(f"f{i}", h, side="friends", party="p") for i, h in enumerate(sorted(m.where("F")))]
    return m, with_figures(sit, user, *foes, *friends)


def test_an_area_needs_sight_of_its_chosen_hex_only() -> None:
    # A column of flat-top hexes is straight: S sees T, the rock hides E, which is within 2 of T.
    m, sit = _position(
        """
        S . .
        . . .
        T . .
        # . .
        E . .
        """
    )
    user = sit.figures["user"]
    enemy = sit.figures["e0"]
    assert sit.sight.sees(user.hex, m.one("T")) and not sit.sight.sees(user.hex, enemy.hex)
    u = use(sit, user, Skill(Shape.AREA, reach=5, size=2), m.one("T"))
    assert u.allowed and [f.id for f in u.hit] == ["e0"]


def test_an_area_on_an_unseen_hex_cannot_be_used() -> None:
    m, sit = _position(
        """
        S . # T E
        """
    )
    u = use(sit, sit.figures["user"], Skill(Shape.AREA, reach=5, size=1), m.one("T"))
    assert not u.allowed and "out of sight" in u.reason


def test_a_fan_needs_sight_of_each_target() -> None:
    _m, sit = _position(
        """
        . . . . . . .
        . . . . . . .
        . . S # E . .
        . . . E . E .
        . . . . . . .
        """
    )
    user = sit.figures["user"]
    u = use(sit, user, Skill(Shape.FAN, reach=3), direction=0)
    assert len(u.inside) == 3 and len(u.hit) == 2  # the rock hides the far one
    for f in u.inside:
        if f.id == "user":
            continue
        assert (f in u.hit) == sit.sight.sees(user.hex, f.hex)
    assert any(f.id in u.spared and "sight" in u.spared[f.id] for f in u.inside)


def test_an_attack_around_the_user_reaches_unseen_targets() -> None:
    _m, sit = _position(
        """
        S .
        # .
        E .
        """
    )
    user = sit.figures["user"]
    u = use(sit, user, Skill(Shape.SELF, reach=0, size=2))
    assert [f.id for f in u.hit] == ["e0"]
    assert not sit.sight.sees(user.hex, sit.figures["e0"].hex)


def test_areas_spare_the_users_party_unless_the_gm_rules_otherwise() -> None:
    _m, sit = _position(
        """
        S F E
        . . .
        """
    )
    user = sit.figures["user"]
    everyone = Skill(Shape.SELF, reach=0, size=2, affects=Affects.EVERYONE)
    u = use(sit, user, everyone)
    assert [f.id for f in u.hit] == ["e0"]
    assert u.spared["f0"] == "the user's party" and u.spared["user"] == "the user's party"
    ruled = Situation(sit.board, sit.sight, sit.figures, {"party_hit:user": "yes"})
    assert {f.id for f in use(ruled, user, everyone).hit} == {"e0", "f0", "user"}
    heal = Skill(Shape.SELF, reach=0, size=2, affects=Affects.FRIENDS)
    assert {f.id for f in use(sit, user, heal).hit} == {"user", "f0"}  # healing never touches the enemy
