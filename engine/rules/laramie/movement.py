"""The movement phase, lowest combat value first (ties between sides rolled on 1d10, lower first).

Moves by state: normal 1 hex; dash 2; crawl 1 (lying prone); jump-prone 1, then 1d10 at or under the
combat value and it lies prone where it landed, else it is suppressed-1 there; prone does not move.
Suppressed and morale-broken units do not move — but one in the open runs, a hex a phase, for the nearest
place with a to-hit modifier. Turning is free at any time (``face``). Black lines stop a move; walls do not.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.actions import Move, Roll
from engine.cell_graph import KeptGraphs
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.turns import RollOff
from engine.flow.words import possessive
from engine.hexes import Hex
from engine.i18n import gettext_for, ngettext_for
from engine.pathfinding import Reach
from engine.prompts import Chance, DieRequest, Outcome, Prompt, PromptKind
from engine.state import GameState

from . import dice, order, terrain, units
from .steps import JumpRoll, MoveUnit

if TYPE_CHECKING:
    from .rules import Laramie

RUNS = (units.SUPPRESSED_1, units.SUPPRESSED_2, units.BROKEN)  # they run for cover from the open

_ = gettext_for(__name__)
_n = ngettext_for(__name__)


def enter(r: Laramie, state: GameState) -> MoveUnit | RollOff:
    groups = order.ranked(state, r.combat_value, low_first=True, scenario_order=r.ids)
    off = order.roll_off(groups, order.MOVEMENT)
    return off if off is not None else MoveUnit(tuple(g[0] for g in groups))


def advance(r: Laramie, state: GameState, ranking: tuple[str, ...], index: int, events: list[Event]) -> None:
    if index + 1 < len(ranking):
        state.step = MoveUnit(ranking, index + 1)
    else:
        r.end_phase(state, events)


def _cover_distances(r: Laramie) -> dict[Hex, int]:
    """Steps from every hex to the nearest place with a to-hit modifier."""
    board = r.board
    dist = {h: 0 for h in board if terrain.has_cover(board, h) and terrain.standable_here(board, h)}
    todo = deque(dist)
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n not in dist and n in board and terrain.can_step(board, n, h):
                dist[n] = dist[h] + 1
                todo.append(n)
    return dist

_GRAPHS = KeptGraphs()  # each board's movement graph: every step is the board's alone


def runs_for_cover(r: Laramie, fig_hex: Hex, state_name: str) -> bool:
    return state_name in RUNS and not terrain.has_cover(r.board, fig_hex)


def moves(r: Laramie, state: GameState, fid: str) -> Mapping[Hex, Reach]:
    """Where the unit may move now (its start included, unless it must run for cover)."""
    fig = state.figures[fid]
    if not fig.alive or fig.hex is None:
        return {}
    start, name = fig.hex, units.state_of(fig)
    if runs_for_cover(r, start, name):
        dist = _cover_distances(r)
        here = dist.get(start)
        if here is None:
            return {start: Reach(0.0, (start,))}
        return {n: Reach(1.0, (start, n)) for n in start.neighbours()
                if terrain.can_step(r.board, start, n) and dist.get(n) == here - 1}
    allowance = units.rules_of(fig).move
    graph = _GRAPHS.of(r.board, lambda a, b: 1.0 if terrain.can_step(r.board, a, b) else None)
    return graph.reachable(start, allowance)


def why_not(r: Laramie, state: GameState, fid: str, to: Hex) -> str:
    fig = state.figures[fid]
    name, where = r.name_of(fid), r.label(to)
    if to not in r.board:
        return _("{hex} is not on the map", hex=where)
    if not terrain.standable_here(r.board, to):
        return _("nobody can stand at {hex}", hex=where)
    rules = units.rules_of(fig)
    assert fig.hex is not None
    now = units.label(rules.name).lower()
    if runs_for_cover(r, fig.hex, units.state_of(fig)):
        return _("{name} is {state} in the open: it runs a hex towards the nearest cover", name=name, state=now)
    if rules.move == 0:
        return _("{name} is {state} and does not move (turning is free)", name=name, state=now)
    return _n("{hex} is out of {owner} {n}-hex move ({state}) or behind a black line",
              "{hex} is out of {owner} {n}-hex move ({state}) or behind a black line", rules.move,
              hex=where, owner=possessive(name), state=now)


def prompt(r: Laramie, state: GameState, step: MoveUnit) -> Prompt:
    fid = step.order[step.index]
    fig = state.figures[fid]
    rules = units.rules_of(fig)
    assert fig.hex is not None
    name, now = r.name_of(fid), units.label(rules.name).lower()
    if runs_for_cover(r, fig.hex, units.state_of(fig)):
        text = _("{name} is {state} in the open: move it a hex towards the nearest cover.", name=name, state=now)
    elif units.state_of(fig) == units.JUMP_PRONE:
        text = _("{name} jumps prone: move it up to 1 hex, then roll 1d10 (≦ {need}: prone there, else "
                 "suppressed-1).", name=name, need=r.combat_value(fid))
    else:
        text = _n("Move {name} ({state}) up to {n} hex or leave it; turn it as you like.",
                  "Move {name} ({state}) up to {n} hexes or leave it; turn it as you like.", rules.move,
                  name=name, state=now)
    return Prompt(PromptKind.MOVE, fig.side, text, figure=fid, moves=moves(r, state, fid))


def apply(r: Laramie, state: GameState, step: MoveUnit, move: Move, events: list[Event]) -> None:
    fid = step.order[step.index]
    fig = state.figures[fid]
    start = fig.hex
    assert start is not None
    state.put(fid, move.to)
    name = r.name_of(fid)
    if move.to == start:
        events.append(Event("stayed", _("{name} stays at {hex}.", name=name, hex=r.label(start)), {"figure": fid}))
    else:
        events.append(Event("moved", _("{name} moves from {start} to {end}.", name=name, start=r.label(start),
                                       end=r.label(move.to)),
                            {"figure": fid, "from": [start.q, start.r], "to": [move.to.q, move.to.r]}))
    if units.state_of(fig) == units.JUMP_PRONE:
        state.step = JumpRoll(step.order, step.index, move.to)
        return
    advance(r, state, step.order, step.index, events)


def settle(r: Laramie, state: GameState, step: MoveUnit, events: list[Event]) -> bool:
    """A fallen unit, or one that may not move, is passed over."""
    if not step.order:
        r.end_phase(state, events)
        return True
    fid = step.order[step.index]
    fig = state.figures[fid]
    if fig.alive and (set(moves(r, state, fid)) - {fig.hex} or units.state_of(fig) == units.JUMP_PRONE):
        return False
    advance(r, state, step.order, step.index, events)
    return True


def prompt_jump(r: Laramie, state: GameState, step: JumpRoll) -> Prompt:
    fid = step.order[step.index]
    fig = state.figures[fid]
    need = r.combat_value(fid)
    ok = dice.faces(lambda d: dice.succeeds(d, 0, need))
    return Prompt(PromptKind.ROLL, fig.side, _("{name} jumps prone at {hex}: roll 1d10 — {need} or less and it lies "
                                               "prone, else it is suppressed-1.", name=r.name_of(fid),
                                               hex=r.label(step.landed), need=need), figure=fid,
                  dice=(DieRequest(fig.side, dice.DIE, _("jump prone"), fid),),
                  outcomes=(tuple(Outcome(d, d, _("prone") if d in ok else _("suppressed-1")) for d in range(1, 11)),),
                  chances=(Chance(_("{name} lies prone", name=r.name_of(fid)), len(ok) / dice.DIE),))


def apply_jump(r: Laramie, state: GameState, step: JumpRoll, roll: Roll, events: list[Event]) -> None:
    fid = step.order[step.index]
    (rolled,) = roll.values
    if dice.succeeds(rolled, 0, r.combat_value(fid)):
        events.append(Event("state", _("{name} rolls {die}: lies prone at {hex}.", name=r.name_of(fid), die=rolled,
                                       hex=r.label(step.landed)),
                            {"figure": fid, "state": units.JUMP_PRONE, "values": [rolled]}))
    else:
        units.set_state(state.figures[fid], units.SUPPRESSED_1)
        events.append(Event("state", _("{name} rolls {die}: suppressed-1 at {hex}.", name=r.name_of(fid), die=rolled,
                                       hex=r.label(step.landed)),
                            {"figure": fid, "state": units.SUPPRESSED_1, "values": [rolled]}))
    advance(r, state, step.order, step.index, events)


STAGES = (Stage(MoveUnit, prompt, apply, settle), Stage(JumpRoll, prompt_jump, apply_jump))
