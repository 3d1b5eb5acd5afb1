"""Random towers: the rules' space queries agree with a plain search over every space of the map.

- The block action's targets are exactly the conscious enemies one space away (hex distance 1), whatever the
  levels; everyone in battle range is among them.
- Where a character coming down on another may land is exactly the spaces at distance 1 from that other, no
  higher than its level, standable and free of other conscious characters.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.rules.lost_worlds import blocking
from engine.rules.lost_worlds.condition import HELD
from tests.lost_worlds.tower import FLAT_3x3, game, tower

SPACES = ("A1", "C1", "E1", "B1", "D1", "A2", "C2", "E2", "B2", "D2", "A3", "C3", "E3", "B3", "D3")


def levels_text(levels: list[int]) -> str:
    """FLAT_3x3's shape with the given levels, in its reading order."""
    it = iter(levels)
    return "".join(str(next(it)) if ch.isdigit() else ch for ch in FLAT_3x3)


@st.composite
def towers(draw: st.DrawFn) -> tuple[Game, list[str]]:
    levels = draw(st.lists(st.integers(0, 4), min_size=15, max_size=15))
    n = draw(st.integers(2, 5))
    at = draw(st.lists(st.sampled_from(SPACES), min_size=n, max_size=n, unique=True))
    figures = tuple({"name": f"F{i}", "side": draw(st.sampled_from("ab")) if i > 1 else "ab"[i], "at": a,
                     "height": draw(st.integers(1, 6))} for i, a in enumerate(at))
    g = game(tower(levels_text(levels), figures))
    held = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    ids = list(g.state.figures)
    for fid, h in zip(ids, held, strict=True):
        g.state.figures[fid].mark(HELD, h)
    return g, ids


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(towers())
def test_block_targets_are_the_enemies_one_space_away(case: tuple[Game, list[str]]) -> None:
    g, ids = case
    r, state = g.rules, g.state
    for fid in ids:
        me = state.figures[fid]
        assert me.hex is not None
        plain = sorted(o.id for o in state.figures.values() if o.side != me.side and o.hex is not None
                       and o.hex.distance(me.hex) == 1 and not o.flag(HELD))
        assert [e.id for e in blocking.block_targets(r, state, me)] == plain  # type: ignore[arg-type]
        in_range = {e.id for e in r.spaces.enemies_in_range(state, me)}  # type: ignore[attr-defined]
        assert in_range <= {e.id for e in r.spaces.enemies_next_to(state, me)}  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(towers())
def test_landings_beside_a_character_are_the_free_spaces_next_to_it_no_higher(case: tuple[Game, list[str]]) -> None:
    g, ids = case
    r, state, board = g.rules, g.state, g.scenario.board
    for fid in ids:
        for tid in ids:
            if fid == tid:
                continue
            me, target = state.figures[fid], state.figures[tid]
            assert target.hex is not None
            plain = {board.from_label(s) for s in SPACES
                     if board.from_label(s).distance(target.hex) == 1
                     and board.level(board.from_label(s)) <= board.level(target.hex)
                     and not any(o.hex == board.from_label(s) for o in state.figures.values() if o.id != fid)}
            assert set(r.spaces.landing_spaces(state, me, target)) == plain  # type: ignore[attr-defined]


def test_a_character_whose_load_costs_more_than_its_points_left_can_still_be_asked_where_it_may_go() -> None:
    """Seed 5 of the tower: the Knight carries what costs more than the points it has left (a tablet's moves query
    used to fail with an internal error there)."""
    from engine.autoplay import AutoPlayer
    from engine.game import Game
    from engine.scenario import load_scenario

    game, player = Game(load_scenario("lost-worlds-ruined-tower")), AutoPlayer(seed=5)
    for _ in range(6):
        game.apply(player.choose(game))
    knight = game.state.figures["knight"]
    assert knight.hex is not None
    assert dict(game.rules.reachable(game.state, "knight")).keys() <= {knight.hex}
