"""The movement phase: each character spends movement points equal to its height on the movement chart.

A character's move is a series of chart actions, one prompt each, listing what it may do now with the
cost: enter an adjacent space (a move on one level, climbing or descending 1 per level), a forced drop,
jumping over a space or onto an enemy, running, blocking or pushing an enemy, throwing, standing up, …
Starred actions never share a turn with a run. Entering an enemy's battle range lets that enemy block
the mover (its move ends there) unless the mover came into the enemy's back space. When the move is
over the player names the character's back space. What the character may do comes from the movement chart
(:mod:`.chart_actions`, :mod:`.object_actions`); the tablets' costed reach is :mod:`.costed_reach`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.words import possessive
from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.prompts import Option, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import blocking, chart, objects, scenario_fields
from .chart_actions import choices
from .condition import (
    CARRY_PAID,
    COUP,
    ESCAPED,
    HARD_PUSHER,
    HELD,
    IMMATERIAL,
    MANA_LEFT,
    MP,
    RAN,
    REGEN,
    STARRED,
    balance,
    conscious,
    set_balance,
)
from .movement_points import ChartChoice, mp, spend
from .spaces import back_space, facing_for_back
from .steps import Act, AskBlock, DropRoll, NameBack, OntoRoll, PickMover, PushRoll, ThrowHit

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)


MOVED_SET = "moved"  # the characters that have moved this turn


def movers(r: LostWorlds, state: GameState) -> list[str]:
    sides = r.player_sides(state)
    return [f.id for f in state.alive() if f.side in sides and conscious(f) and not state.in_set(MOVED_SET, f.id)]


def first_step(r: LostWorlds, state: GameState) -> PickMover:
    return PickMover()


def prompt_pick(r: LostWorlds, state: GameState, step: PickMover) -> Prompt:
    options = tuple(Option(fid, _("move {name} at {space}: {points} movement points", name=r.name_of(fid),
                                  space=r.where(state, fid), points=r.height(fid)),
                           state.figures[fid].hex, fid) for fid in movers(r, state))
    return Prompt(PromptKind.CHOOSE, r.player_sides(state)[0],
                  _("{side}: which character moves next?", side=r.active_name(state)), options=options)


def apply_pick(r: LostWorlds, state: GameState, step: PickMover, choice: Choose, events: list[Event]) -> None:
    start(r, state, choice.option, events)


def settle_pick(r: LostWorlds, state: GameState, step: PickMover, events: list[Event]) -> bool:
    left = movers(r, state)
    if not left:
        r.end_phase(state, events)
        return True
    if len(left) == 1:
        start(r, state, left[0], events)
        return True
    return False


def start(r: LostWorlds, state: GameState, fid: str, events: list[Event]) -> None:
    fig = state.figures[fid]
    fig.values[MP] = r.height(fid)
    fig.mark(CARRY_PAID, None)
    state.step = Act(fid)


def prompt_act(r: LostWorlds, state: GameState, step: Act) -> Prompt:
    fig = state.figures[step.figure]
    opts = tuple(c.option for c in choices(r, state, step.figure))
    notes = [_("{left} of {height} movement points left", left=mp(fig), height=r.height(fig.id))]
    if fig.flag(RAN):
        notes.append(_("ran: no starred actions"))
    carried = objects.large_carried(r, fig)
    if carried is not None:
        notes.append(_("carrying the {object}: drop it to attack", object=objects.name(r, carried)))
    if balance(fig) != "normal":
        notes.append(_(BALANCE_WORDS[balance(fig)]))
    return Prompt(PromptKind.CHOOSE, fig.side,
                  _("{name} at {space}: {notes}. What does it do?", name=r.name_of(fig.id),
                    space=r.where(state, fig.id), notes=_("; ").join(notes)),
                  figure=fig.id, options=opts)


def apply_act(r: LostWorlds, state: GameState, step: Act, choice: Choose, events: list[Event]) -> None:
    fid = step.figure
    fig = state.figures[fid]
    pick = next(c for c in choices(r, state, fid) if c.option.id == choice.option)
    name = r.name_of(fid)
    row = chart.actions().get(pick.action)
    if row is not None and row.starred:
        fig.mark(STARRED, True)
    a = pick.action
    if a == "end":
        state.step = NameBack(fid)
        return
    if a == "jump" and not fig.flag(RAN):
        _run(r, fig, events)
    spend(fig, pick.cost)
    if pick.extra.get("carry"):
        fig.mark(CARRY_PAID, True)
        events.append(Event("carried", _("{name} carries the {object} this turn ({cost} MP).", name=name,
                                         object=objects.name(r, objects.large_carried(r, fig) or ""),
                                         cost=pick.extra["carry"]), {"figure": fid}))
    if a in ("move", "climb", "crawl", "disengage", "jump", "aside"):
        assert pick.to is not None
        came = fig.hex
        state.put(fid, pick.to)
        if a == "disengage":
            fig.mark(ESCAPED, None)
        if a == "jump" and balance(fig) == "normal":
            set_balance(fig, "off_balance")
        verb = CLIMBS_DOWN_TO if a == "climb" and came is not None and r.board.level(pick.to) < r.board.level(came) \
            else VERBS[a]
        events.append(Event("moved", _(verb, name=name, space=r.where(state, fid), left=mp(fig)),
                            {"figure": fid, "from": _cell(came), "to": _cell(pick.to), "action": a}))
        # Every space entered in an enemy's battle range, except its back space, lets that enemy block.
        blockers = blocking.blockers_on_entry(r, state, fig, pick.to)
        state.step = AskBlock(fid, blockers) if blockers else Act(fid)
        return
    if a == "forced_drop":
        assert pick.to is not None and fig.hex is not None
        levels = r.board.level(fig.hex) - r.board.level(pick.to)
        state.put(fid, pick.to)
        events.append(Event("moved", _("{name} drops {levels} levels to {space}.", name=name, levels=levels,
                                       space=r.where(state, fid)),
                            {"figure": fid, "to": _cell(pick.to), "action": a}))
        state.step = DropRoll(fid, levels)
        return
    if a == "jump_onto":
        assert pick.target is not None and pick.to is not None and fig.hex is not None
        levels = r.board.level(fig.hex) - r.board.level(pick.to)
        events.append(Event("jumped", _("{name} jumps onto {target} from {levels} levels up.", name=name,
                                        target=r.name_of(pick.target), levels=levels),
                            {"figure": fid, "target": pick.target}))
        state.step = OntoRoll(fid, pick.target, levels, f"act {fid}")
        return
    if a in ("push_enemy", "hard_push"):
        assert pick.target is not None
        hard = a == "hard_push"
        if hard:
            fig.mark(HARD_PUSHER, True)
        said = dict(name=name, target=r.name_of(pick.target))
        text = _("{name} pushes {target} hard.", **said) if hard else _("{name} pushes {target}.", **said)
        events.append(Event("pushed", text,
                            {"figure": fid, "target": pick.target, "hard": hard}))
        state.step = PushRoll(fid, pick.target, hard)
        return
    if a == "throw":
        assert pick.target is not None
        weapon = str(pick.extra["weapon"])
        events.append(Event("threw", _("{name} throws the {object} at {target}.", name=name,
                                       object=objects.name(r, weapon), target=r.name_of(pick.target)),
                            {"figure": fid, "target": pick.target, "weapon": weapon}))
        state.step = ThrowHit(fid, pick.target, weapon, bool(pick.extra["beyond"]))
        return
    _apply_here(r, state, fig, pick, events)
    state.step = Act(fid)


def _apply_here(r: LostWorlds, state: GameState, fig: FigureState, pick: ChartChoice, events: list[Event]) -> None:
    """Actions that leave the character where it is."""
    name, a = r.name_of(fig.id), pick.action
    text = ""
    if a == "run":
        _run(r, fig, events)
        return
    if a == "stand_up":
        set_balance(fig, "normal")
        text = _("{name} stands up", name=name)
    elif a == "regain_balance":
        set_balance(fig, "normal")
        text = _("{name} regains its balance", name=name)
    elif a == "lie_down":
        set_balance(fig, "down")
        text = _("{name} lies down", name=name)
    elif a == "block":
        assert pick.target is not None
        state.figures[pick.target].mark(HELD, True)
        text = _("{name} blocks {target}: it may only regain balance this turn", name=name,
                 target=r.name_of(pick.target))
    elif a == "coup_de_grace":
        assert pick.target is not None
        bonus = chart.recovery_rules()["coup_de_grace"]
        state.figures[pick.target].values[COUP] = bonus
        fig.values[MP] = 0
        text = _("{name} gives {target} the coup de grâce: +{bonus} to its recovery die", name=name,
                 target=r.name_of(pick.target), bonus=bonus)
    elif a == "pick_up":
        token = str(pick.extra["token"])
        item = objects.pick_up(state, fig, token)
        text = _("{name} picks up the {object}", name=name, object=objects.name(r, item))
    elif a == "drop":
        item = str(pick.extra["weapon"])  # one the character carries, dropped on a space of its battle range
        assert pick.to is not None
        objects.put_down(state, fig, item, pick.to)
        dropped = objects.name(r, item)
        text = _("{name} drops the {object} at {space}", name=name, object=dropped, space=r.label(pick.to)) \
            if pick.to != fig.hex else _("{name} drops the {object}", name=name, object=dropped)
    elif a == "examine":
        token = str(pick.extra["token"])
        shown = objects.examine(r, state, fig, token)
        said = dict(name=name, object=objects.name(r, token), text=r.objects[token].examine)
        text = _("{name} examines the {object}: {text}", **said)
        if shown:
            text = _("{text}; the {found} is there now", text=text,
                     found=", ".join(objects.name(r, t) for t in shown))
    elif a == "push_object":
        token = str(pick.extra["token"])
        assert pick.to is not None
        came = state.tokens[token]
        state.tokens[token] = pick.to
        said = dict(name=name, object=objects.name(r, token), space=r.label(pick.to))
        text = _("{name} pushes the {object} to {space}", **said)
        if came is not None and r.board.level(pick.to) < r.board.level(came):
            text = _("{name} pushes the {object} off the edge: it falls {levels} levels to {space}",
                     levels=r.board.level(came) - r.board.level(pick.to), **said)
    elif a == "regenerate":
        fig.values[REGEN] = int(fig.values.get(REGEN, 0)) + scenario_fields.regenerates(r.specs[fig.id])
        text = _("{name} regenerates", name=name)
        if r.has(fig.id, scenario_fields.WRAITH):
            fig.mark(IMMATERIAL, True)
            text = _("{name} regenerates: it has no battle range this movement phase and may be passed and entered",
                     name=name)
    elif a == "recover_mana":
        fig.values[MANA_LEFT] = int(fig.values.get(MANA_LEFT, 0)) + 1
        text = _("{name} recovers mana", name=name)
    events.append(Event("acted", _("{text} ({left} movement points left).", text=text, left=mp(fig)),
                        {"figure": fig.id, "action": a}))


def _run(r: LostWorlds, fig: FigureState, events: list[Event]) -> None:
    fig.mark(RAN, True)
    fig.values[MP] = mp(fig) + chart.run_bonus()
    events.append(Event("ran", _("{name} runs: +{bonus} movement points ({left} left); it starts the combat phase "
                                 "off-balance.", name=r.name_of(fig.id), bonus=chart.run_bonus(), left=mp(fig)),
                        {"figure": fig.id}))


VERBS: dict[str, str] = {  # what a step says in the record, by chart action
    "move": N_("{name} moves to {space} ({left} movement points left)."),
    "climb": N_("{name} climbs to {space} ({left} movement points left)."),
    "crawl": N_("{name} crawls to {space} ({left} movement points left)."),
    "disengage": N_("{name} disengages to {space} ({left} movement points left)."),
    "jump": N_("{name} jumps to {space} ({left} movement points left)."),
    "aside": N_("{name} steps aside to {space} ({left} movement points left)."),
}


CLIMBS_DOWN_TO = N_("{name} climbs down to {space} ({left} movement points left).")


BALANCE_WORDS: dict[str, str] = {"off_balance": N_("off-balance"), "down": N_("down")}


def _cell(h: Hex | None) -> list[int] | None:
    return None if h is None else [h.q, h.r]


def prompt_back(r: LostWorlds, state: GameState, step: NameBack) -> Prompt:
    fig = state.figures[step.figure]
    assert fig.hex is not None
    now = back_space(fig)
    options = [Option("keep", _("keep {space} as the back space", space=r.label(now) if now is not None else "-"))]
    for n in fig.hex.neighbours():
        if n in r.board and n != now:
            options.append(Option(f"back-{r.label(n)}", _("back space {space}", space=r.label(n)), n))
    return Prompt(PromptKind.CHOOSE, fig.side,
                  _("{owner} move is over: name its back space (the space behind it, where it cannot defend; turn the "
                    "figure so its tag's back mark points there, or tap)", owner=possessive(r.name_of(fig.id))),
                  options=tuple(options))


def apply_back(r: LostWorlds, state: GameState, step: NameBack, choice: Choose, events: list[Event]) -> None:
    fig = state.figures[step.figure]
    assert fig.hex is not None
    if choice.option != "keep":
        back = r.board.from_label(choice.option.removeprefix("back-"))
        fig.facing = facing_for_back(fig.hex, back)
    finish(r, state, fig, events)


def finish(r: LostWorlds, state: GameState, fig: FigureState, events: list[Event]) -> None:
    """The character's move is over: a run or a hard push leaves it off-balance for the combat phase."""
    if (fig.flag(RAN) or fig.flag(HARD_PUSHER)) and balance(fig) == "normal":
        set_balance(fig, "off_balance")
    fig.mark(ESCAPED, None)
    fig.mark(MP, None)
    state.add_to_set(MOVED_SET, fig.id)
    back = back_space(fig)
    events.append(Event("moved_done", _("{name} ends its move at {space}, back space {back}.", name=r.name_of(fig.id),
                                        space=r.where(state, fig.id), back=r.label(back) if back is not None else "-"),
                        {"figure": fig.id, "facing": fig.facing}))
    state.step = PickMover()


def end_move(r: LostWorlds, state: GameState, fid: str, events: list[Event]) -> None:
    """Go on after an interruption: the mover acts again, names its back space, or (out of the fight) is done."""
    fig = state.figures[fid]
    if not conscious(fig):
        fig.mark(MP, None)
        state.add_to_set(MOVED_SET, fid)
        state.step = PickMover()
    else:
        state.step = Act(fid)


STAGES = (
    Stage(PickMover, prompt_pick, apply_pick, settle_pick),
    Stage(Act, prompt_act, apply_act),
    Stage(AskBlock, blocking.prompt_block, blocking.apply_block),
    Stage(NameBack, prompt_back, apply_back),
)
