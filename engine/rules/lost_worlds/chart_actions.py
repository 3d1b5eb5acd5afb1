"""The movement chart: every action a character may take now, with its cost.

Enter an adjacent space (a move on one level, climbing or descending 1 per level, crawling while down), a forced
drop, jumping over a space or onto an enemy, disengaging after an escape, running, standing up, regaining balance,
lying down, regenerating, recovering mana, blocking or pushing an enemy, a coup de grâce, and the actions on
objects (:mod:`.object_actions`). A move may end only where the character may stand: one conscious character a
space, so from a friend's space some free space must stay within reach.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.flow.words import possessive
from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.prompts import Option
from engine.state import FigureState, GameState

from . import blocking, chart, height, objects, scenario_fields
from .condition import (
    DOWN,
    ESCAPED,
    HELD,
    MANA,
    MANA_LEFT,
    OFF_BALANCE,
    RAN,
    balance,
    conscious,
)
from .movement_points import ChartChoice, jump_budget, may_run, mp, row_choice, starred_ok
from .object_actions import object_actions
from .spaces import beyond

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)


MANA_PER_TURN = 2


def step_cost(r: LostWorlds, a: Hex, b: Hex) -> int:
    return height.step_cost(r.board.level(a), r.board.level(b), chart.cost("move"), chart.cost("climb"))


def _entry_cost(r: LostWorlds, fig: FigureState, a: Hex, b: Hex) -> int:
    return chart.cost("crawl") if fig.flag(DOWN) else step_cost(r, a, b)


def _free(r: LostWorlds, state: GameState, fig: FigureState, at: Hex) -> list[Hex]:
    """Adjacent spaces with no conscious character that the character may step into."""
    return [n for n in r.spaces.steps(at) if not r.spaces.others_conscious(state, n, fig.id)
            and not r.spaces.can_enter(state, fig, n)]


def _can_leave(r: LostWorlds, state: GameState, fig: FigureState, at: Hex, points: int) -> bool:
    """From a friend's space, some free space is still within ``points`` (so the move can end legally)."""
    return any(_entry_cost(r, fig, at, n) <= points for n in _free(r, state, fig, at))


def _still_ends(r: LostWorlds, state: GameState, fig: FigureState, points: int) -> bool:
    """After spending down to ``points``, the character can still end its move legally."""
    assert fig.hex is not None
    return r.spaces.can_end(state, fig) or _can_leave(r, state, fig, fig.hex, points)


def _entry_ok(r: LostWorlds, state: GameState, fig: FigureState, to: Hex, points_after: int) -> bool:
    if r.spaces.can_enter(state, fig, to):
        return False
    if r.spaces.others_conscious(state, to, fig.id):
        return _can_leave(r, state, fig, to, points_after)
    return True


def choices(r: LostWorlds, state: GameState, fid: str) -> list[ChartChoice]:
    """Every action the character may take now, with its cost (``end`` first when the move may end)."""
    fig = state.figures[fid]
    here = fig.hex
    if here is None or not conscious(fig):
        return []
    left = mp(fig)
    out: list[ChartChoice] = []
    label = r.label
    if r.spaces.can_end(state, fig):
        out.append(ChartChoice(Option("end", _("end {owner} move ({left} movement points unused)",
                                              owner=possessive(r.name_of(fid)), left=left)), "end"))
    elif not _can_leave(r, state, fig, here, left):  # stuck in a friend's space: it steps aside, free
        return [ChartChoice(Option(f"aside-{label(n)}", _("step aside to {space} (free: one conscious character per "
                                                          "space)", space=label(n)), n), "aside", 0, n)
                for n in _free(r, state, fig, here)]
    if fig.flag(HELD):  # blocked: nothing but regaining balance this turn
        if fig.flag(OFF_BALANCE) and left >= chart.cost("regain_balance") and starred_ok(fig):
            out.append(row_choice(r, "regain_balance", fid))
        return out
    lvl = r.board.level(here)
    down = fig.flag(DOWN)
    for n in r.spaces.steps(here):
        dl = r.board.level(n) - lvl
        enemy_there = [o for o in r.spaces.others_conscious(state, n, fid) if o.side != fig.side]
        if down:
            c = chart.cost("crawl")
            if dl == 0 and c <= left and starred_ok(fig) and _entry_ok(r, state, fig, n, left - c):
                out.append(ChartChoice(Option(f"crawl-{label(n)}", _("crawl to {space} ({cost} MP)", space=label(n),
                                                                       cost=c), n), "crawl", c, n))
            continue
        for enemy in enemy_there:  # it must have somewhere to land beside the enemy
            c = chart.cost("jump_onto")
            if -dl >= 1 and c <= left and r.spaces.landing_spaces(state, fig, enemy):
                out.append(ChartChoice(Option(f"onto-{enemy.id}", _("jump onto {name} at {space} from {levels} levels "
                                                                    "up ({cost} MP, roll 1d6)",
                                                                    name=r.name_of(enemy.id), space=label(n),
                                                                    levels=-dl, cost=c), n, enemy.id),
                                       "jump_onto", c, n, enemy.id))
        if enemy_there:
            continue
        c = step_cost(r, here, n)
        kind = "move" if dl == 0 else "climb"
        word = MOVE_TO if dl == 0 else (CLIMB_TO if dl > 0 else CLIMB_DOWN_TO)
        if c <= left and _entry_ok(r, state, fig, n, left - c):
            out.append(ChartChoice(Option(f"to-{label(n)}", _(word, space=label(n), level=lvl + dl, cost=c), n),
                                   kind, c, n))
        drop = chart.cost("forced_drop")
        if dl <= -2 and drop <= left and _entry_ok(r, state, fig, n, left - drop):
            out.append(ChartChoice(Option(f"drop-{label(n)}", _("forced drop to {space}, {levels} levels down ({cost} "
                                                                "MP, roll 1d6)", space=label(n), levels=-dl,
                                                                cost=drop), n), "forced_drop", drop, n))
        if fig.flag(ESCAPED) and abs(dl) <= 1 and not r.spaces.others_conscious(state, n, fid) and not any(
                r.spaces.space_in_range(e, n, fid) for e in state.alive() if e.side != fig.side):
            out.append(ChartChoice(Option(f"disengage-{label(n)}", _("disengage to {space} (free after escaping)",
                                                                     space=label(n)), n), "disengage", 0, n))
    if not down:
        out.extend(_jumps(r, state, fig, here, left))
    due = objects.carry_due(r, fig)
    if due:  # the first step of a turn with a large object pays for carrying it
        out = [c for c in (_carrying(r, fig, c, due, left) for c in out) if c is not None]
    rest = [*_self_actions(r, state, fig, left), *_enemy_actions(r, state, fig, left),
            *(c for c, why in object_actions(r, state, fig, left) if not why)]
    out.extend(c for c in rest if c.action == "run" or _still_ends(r, state, fig, left - c.cost))
    return out


STEPS = frozenset({"move", "climb", "crawl", "forced_drop", "jump", "jump_onto", "disengage"})


def _carrying(r: LostWorlds, fig: FigureState, c: ChartChoice, due: int, left: int) -> ChartChoice | None:
    """A step that also pays this turn's carrying of a large object (None when the points do not reach)."""
    if c.action not in STEPS:
        return c
    budget = jump_budget(fig, left) if c.action == "jump" else left
    if c.cost + due > budget:
        return None
    item = objects.large_carried(r, fig)
    label = _("{label}, carrying the {object} (+{cost} MP)", label=c.option.label,
              object=objects.name(r, item or ""), cost=due)
    return replace(c, option=replace(c.option, label=label), cost=c.cost + due, extra={**c.extra, "carry": due})


def _jumps(r: LostWorlds, state: GameState, fig: FigureState, here: Hex, left: int) -> list[ChartChoice]:
    c = chart.cost("jump")
    runs = not fig.flag(RAN)
    if runs and not may_run(fig):
        return []
    budget = jump_budget(fig, left)
    if c > budget:
        return []
    out = []
    for over in r.board.neighbours(here):
        land = beyond(here, over)
        if land not in r.board or not r.spaces.standable(land):
            continue
        if not (r.spaces.open_side(here, over) and r.spaces.open_side(over, land)):
            continue
        if height.can_jump(r.board.level(here), r.board.level(land), r.spaces.obstacle_top(state, over)):
            continue
        if not _entry_ok(r, state, fig, land, budget - c):
            continue
        said = dict(over=r.label(over), land=r.label(land), cost=c)
        text = _("jump over {over} to {land} with a run ({cost} MP, lands off-balance)", **said) if runs \
            else _("jump over {over} to {land} ({cost} MP, lands off-balance)", **said)
        out.append(ChartChoice(Option(f"jump-{r.label(land)}", text, land), "jump", c, land))
    return out


def _self_actions(r: LostWorlds, state: GameState, fig: FigureState, left: int) -> list[ChartChoice]:
    out = []
    fid = fig.id
    if may_run(fig):
        out.append(ChartChoice(Option("run", _("run (+{bonus} MP; the combat phase starts off-balance)",
                                              bonus=chart.run_bonus())), "run"))
    state_now = balance(fig)
    if state_now == "down" and left >= chart.cost("stand_up") and starred_ok(fig):
        out.append(row_choice(r, "stand_up", fid))
    if state_now == "off_balance" and left >= chart.cost("regain_balance") and starred_ok(fig):
        out.append(row_choice(r, "regain_balance", fid))
    if state_now != "down":
        out.append(row_choice(r, "lie_down", fid))
    spec = r.specs[fid]
    if r.option("regeneration") and r.has(fid, scenario_fields.REGENERATION) and left >= 1:
        out.append(ChartChoice(Option("regenerate", _("regenerate (1 MP: +{hp} hit points at the end of movement, "
                                                      "none if then in an enemy's battle range)",
                                                      hp=scenario_fields.regenerates(spec))), "regenerate", 1))
    if (r.option("mana_recovery") and r.has(fid, scenario_fields.MANA_RECOVERY) and left >= 1
            and int(fig.values.get(MANA_LEFT, 0)) < MANA_PER_TURN
            and int(fig.values.get(MANA, 0)) < scenario_fields.mana(spec)):
        out.append(ChartChoice(Option("recover-mana", _("recover 1 mana (1 MP; at most 2 a turn, none if then in an "
                                                        "enemy's battle range)")), "recover_mana", 1))
    return out


def _enemy_actions(r: LostWorlds, state: GameState, fig: FigureState, left: int) -> list[ChartChoice]:
    out: list[ChartChoice] = []
    down = fig.flag(DOWN)
    if not down and starred_ok(fig) and left >= chart.cost("block"):  # any enemy next to it, whatever the height
        out.extend(ChartChoice(blocking.block_option(r, e), "block", chart.cost("block"), target=e.id)
                   for e in blocking.block_targets(r, state, fig))
    for enemy in sorted(r.spaces.enemies_in_range(state, fig), key=lambda e: e.id):
        name = r.name_of(enemy.id)
        if not down and left >= chart.cost("push_enemy"):
            out.append(ChartChoice(Option(f"push-{enemy.id}", _("push {name} ({cost} MP: it rolls the fall table "
                                                                "now)", name=name, cost=chart.cost("push_enemy")),
                                          enemy.hex, enemy.id),
                                   "push_enemy", chart.cost("push_enemy"), target=enemy.id))
        if not down and left >= chart.cost("hard_push"):
            out.append(ChartChoice(Option(f"hardpush-{enemy.id}", _("push {name} hard ({cost} MP: +1 to its fall "
                                                                    "die; you start the combat off-balance)",
                                                                    name=name, cost=chart.cost("hard_push")),
                                          enemy.hex, enemy.id),
                                   "hard_push", chart.cost("hard_push"), target=enemy.id))
    for other in state.figures_at(fig.hex) if fig.hex is not None else []:
        if other.side != fig.side and other.alive and not conscious(other) and left >= 1 and starred_ok(fig):
            out.append(ChartChoice(Option(f"coup-{other.id}", _("coup de grâce on {name} (all movement points: +3 to "
                                                                "its recovery die)", name=r.name_of(other.id)),
                                          other.hex, other.id),
                                   "coup_de_grace", left, target=other.id))
    return out


MOVE_TO, CLIMB_TO = N_("move to {space} (level {level}, {cost} MP)"), N_("climb to {space} (level {level}, {cost} MP)")


CLIMB_DOWN_TO = N_("climb down to {space} (level {level}, {cost} MP)")
