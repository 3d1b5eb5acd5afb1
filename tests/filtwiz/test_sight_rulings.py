"""A line of sight that only touches a blocking hex's outer boundary is allowed, but the GM has the final word
(「判断が難しい場合は最終的にＧＭが決定します」, third reading): the engine names the touched hexes in its overlays, and
an attack along such a line waits for the GM's sight ruling, whose prompt draws the line and the hexes it touches."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Choose, Move
from engine.game import Game
from engine.hexes import Hex, hexes_within
from engine.lines import sight_line
from engine.rules.filtwiz.rules import Filtwiz
from engine.rules.filtwiz.steps import ChooseAttack, Judge, PickCharacter, RuleSight
from engine.snapshot import prompt_to_dict, query_to_dict
from engine.wire.game_state import PROMPT
from tests.engine.ascii_map import AsciiMap

from .boards import board_of
from .scenarios import ARCHER_AND_BANDIT as FIGURES
from .scenarios import scenario, started

# The archer in A1 and the bandit in B2: the line between them runs along the side B1 and A2 share, both rocks.
ALONG = """
.   .   .
  #   .
#   .   .
  .   .
"""


def _aimed() -> tuple[Game, Filtwiz]:
    """The archer's turn, up to its attack on the bandit along the rocks' shared side."""
    game = started(scenario(ALONG, FIGURES))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    game.apply(Move("archer", rules.board.from_label("A1")))
    assert isinstance(game.state.step, ChooseAttack)
    game.apply(Choose("target:bandit"))
    return game, rules


def test_an_attack_along_a_touching_line_waits_for_the_gms_sight_ruling_drawn_with_the_touched_hexes() -> None:
    game, rules = _aimed()
    label = rules.board.from_label
    assert isinstance(game.state.step, RuleSight)
    prompt = game.prompt
    assert prompt.gm and {o.id for o in prompt.options} == {"clear", "blocked"}
    assert prompt.overlay is not None
    (line,) = prompt.overlay.lines
    assert line.path == (label("A1"), label("B2")) and line.verdict == "ambiguous" and line.target == "bandit"
    assert set(line.touched) == {label("B1"), label("A2")}
    assert "only touches" in prompt.text
    sent = prompt_to_dict(prompt, game.scenario)
    PROMPT.check(sent, "prompt")  # the wire's schema takes it
    assert sorted(sent["overlay"]["lines"][0]["touched"]) == sorted([[h.q, h.r] for h in line.touched])


def test_the_gm_ruling_the_line_clear_lets_the_attack_go_ahead() -> None:
    game, _rules = _aimed()
    game.apply(Choose("clear"))
    step = game.state.step
    assert isinstance(step, Judge) and step.targets == ("bandit",)
    assert game.state.rulings == {"sight:A1:B2": "clear"}


def test_the_gm_ruling_the_line_blocked_overrules_it_and_the_attack_is_not_made() -> None:
    game, rules = _aimed()
    played = game.apply(Choose("blocked"))
    assert game.state.rulings == {"sight:A1:B2": "blocked"}
    assert any(e.kind == "sight_ruled" and "blocked" in e.text for e in played)
    assert not any(e.kind == "attack" for e in played)
    assert rules.attack_options(game.state, "archer") == []  # nothing else in sight: its action is over
    assert not isinstance(game.state.step, (Judge, RuleSight, ChooseAttack))
    target = next(t for t in rules.targets(game.state, "archer") if t.target == "bandit")
    assert not target.allowed and "out of sight" in target.reason


def test_a_line_the_gm_has_ruled_on_is_not_asked_again() -> None:
    game = started(scenario(ALONG, FIGURES))
    game.state.rulings["sight:B2:A1"] = "clear"  # either way round
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    game.apply(Move("archer", rules.board.from_label("A1")))
    game.apply(Choose("target:bandit"))
    assert isinstance(game.state.step, Judge)


def test_the_tablets_queries_name_the_touched_hexes() -> None:
    game = started(scenario(ALONG, FIGURES))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    label = rules.board.from_label
    touched = {label("B1"), label("A2")}
    (target,) = rules.targets(game.state, "archer")
    assert target.allowed and set(target.touched) == touched
    answer = query_to_dict(game, "targets", "archer")
    assert sorted(map(tuple, answer["overlay"]["lines"][0]["touched"])) == sorted((h.q, h.r) for h in touched)
    seen = rules.query(game.state, "seen_by", "B2")
    (line,) = seen.lines
    assert set(line.touched) == touched and "only touching" in line.text
    assert not isinstance(game.state.step, PickCharacter)


OPEN = set(hexes_within(Hex(0, 0), 4))
CELLS = sorted(OPEN)


@settings(max_examples=80, deadline=None)
@given(st.sets(st.sampled_from(CELLS), max_size=10), st.sampled_from(CELLS), st.sampled_from(CELLS), st.data())
def test_sight_and_the_touched_hexes_agree_with_an_exact_plain_reference(rocks: set[Hex], a: Hex, b: Hex,
                                                                        data: st.DataObject) -> None:
    """The fast sight judge and the touched hexes against a plain reference in exact arithmetic: how deep the
    centre-to-centre line gets into each hex (below 1: through its interior; exactly 1: its boundary only). Rocks
    are put on some of the hexes the line grazes as well, so that touching lines come up often."""
    grazed = sorted(sight_line(a, b).grazed_hexes & OPEN)
    if grazed:
        rocks = rocks | data.draw(st.sets(st.sampled_from(grazed)))
    drawn = AsciiMap({h: "#" if h in rocks else "." for h in OPEN})
    sight = board_of(drawn).sight
    between = [h for h in OPEN if h not in (a, b) and h in rocks]
    depth = {h: _closest(a, b, h) for h in between}
    clear = all(d >= 1 for d in depth.values())
    assert sight.sees(a, b) == clear
    expected = {h for h, d in depth.items() if d == 1} if clear and a != b else set()
    assert set(sight.touched(a, b)) == expected


def _closest(a: Hex, b: Hex, h: Hex) -> Fraction:
    """The least, along the segment from a's centre to b's, of max(|dq - dr|, |dr - ds|, |ds - dq|) measured from
    h's centre: the hex's sides lie at 1, its interior below. The maximum of absolute linear functions is convex and
    piecewise linear in t, so its least value lies at an end or where two of the functions meet (or one is 0)."""
    dq0, dr0 = Fraction(a.q - h.q), Fraction(a.r - h.r)
    vq, vr = Fraction(b.q - a.q), Fraction(b.r - a.r)
    # The three functions (value at t = 0, slope): dq - dr, dr - ds, ds - dq with ds = -dq - dr.
    funcs = [(dq0 - dr0, vq - vr), (dq0 + 2 * dr0, vq + 2 * vr), (-2 * dq0 - dr0, -2 * vq - vr)]
    ts = {Fraction(0), Fraction(1)}
    for i, (c1, m1) in enumerate(funcs):
        if m1:
            ts.add(-c1 / m1)
        for c2, m2 in funcs[i + 1:]:
            for sign in (1, -1):
                if m1 != sign * m2:
                    ts.add((sign * c2 - c1) / (m1 - sign * m2))
    return min(max(abs(c + m * t) for c, m in funcs) for t in ts if 0 <= t <= 1)


def test_the_tablet_reads_the_prompts_line_and_the_touched_hexes_to_draw() -> None:
    """The app holds no rules: it takes the line and the touched hexes from the prompt the engine sends."""
    from companion_app.viewmodels.board_model import build_board
    from companion_app.viewmodels.prompt_model import PromptModel
    from engine.snapshot import game_snapshot, scenario_to_dict

    game, rules = _aimed()
    board = build_board(scenario_to_dict(game.scenario), None)
    model = PromptModel.from_snapshot(game_snapshot(game), board)
    assert model.overlay is not None and model.decider == "table"  # no GM named: the table decides
    (line,) = model.overlay.lines
    label = rules.board.from_label
    assert line.verdict == "ambiguous" and line.start == (label("A1").q, label("A1").r)
    assert set(line.touched) == {(h.q, h.r) for h in (label("B1"), label("A2"))}
    game.apply(Choose("clear"))
    assert PromptModel.from_snapshot(game_snapshot(game), board).overlay is None  # the verdict asks about nothing


def test_the_sight_ruling_speaks_japanese() -> None:
    from engine.i18n import speaking

    game, rules = _aimed()
    with speaking("ja"):
        prompt = rules.prompt(game.state)
        assert prompt.text.startswith("ArcherからB2への視線は") and "外周（辺か角）に触れるだけ" in prompt.text
        assert "最終的にはＧＭが決定する" in prompt.text
        assert [o.label for o in prompt.options] == ["見える：ArcherはB2が見えている。攻撃はそのまま行う",
                                                     "遮られる：ArcherはB2が見えない。攻撃を選び直す"]


def test_a_fan_asks_about_each_touching_line_and_a_blocked_one_spares_only_that_target() -> None:
    """A fan needs sight of each target: the GM rules each touching line in turn; one ruled blocked spares its target
    and the fan goes ahead against the others."""
    fan_figures = FIGURES.replace('attack_range = 3', 'attack = "fan"\nattack_range = 3') + """
[[figures]]
name = "Thug"
marker = 2
side = "bandits"
at = "C1"
movement = 0
"""
    game = started(scenario(ALONG, fan_figures))
    rules = game.rules
    assert isinstance(rules, Filtwiz)
    game.apply(Move("archer", rules.board.from_label("A1")))
    options = rules.attack_options(game.state, "archer")
    aimed = next(o for o in options if {f.id for f in o.use.hit} == {"bandit", "thug"})
    game.apply(Choose(aimed.id))
    asked = []
    while isinstance(game.state.step, RuleSight):
        towards = rules.label(game.state.step.towards)
        asked.append(towards)
        game.apply(Choose("blocked" if towards == "B2" else "clear"))
    assert "B2" in asked
    step = game.state.step
    assert isinstance(step, Judge) and step.targets == ("thug",)
