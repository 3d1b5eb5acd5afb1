"""Movement in Fantasy Battle (RULES.md §1): the next figure, doors and locked doors, the movement roll,
the move, and the combat that contact with an enemy starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Move, Roll
from engine.events import Event
from engine.flow.machine import Stage
from engine.hexes import Edge
from engine.i18n import N_, gettext_for
from engine.prompts import Chance, Option, Outcome, Prompt, PromptKind
from engine.rules.fantasy_battle.combat import fight, start_combat
from engine.rules.fantasy_battle.constants import MOVE_LONG, MOVE_SHORT, UNLOCK_AT
from engine.rules.fantasy_battle.steps import Door, MoveRoll, MoveStep, Select, Unlock
from engine.rules.fantasy_battle.tokens import pick_up
from engine.state import GameState
from engine.texts import agreeing, possessive

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle

_ = gettext_for(__name__)
# Sentences in the two forms that agree with a name (Goblins roll / Red rolls), translated alike.
ENDS_TURN = (N_("{player} ends its turn."), N_("{player} end their turn."))


# -- the next figure ---------------------------------------------------------------------------------------
def prompt_select(r: FantasyBattle, state: GameState, step: Select) -> Prompt:
    opts = [
        Option(fid, _("move {name} ({cell})", name=r.fname(fid), cell=r.at(state, fid)), state.figures[fid].hex, fid)
        for fid in r.selectable(state)
    ]
    opts.append(Option("end", _("End the turn (the others stay where they are)")))
    return Prompt(
        PromptKind.CHOOSE,
        r.player_sides(state)[0],
        _("{player}: choose the next figure to move, or end the turn.", player=r.active_name(state)),
        options=tuple(opts),
    )


def apply_select(r: FantasyBattle, state: GameState, step: Select, action: Choose, events: list[Event]) -> None:
    if action.option == "end":
        name = r.active_name(state)
        said = _(agreeing(name, *ENDS_TURN), player=name)
        events.append(Event("turn_ended", said, {}))
        r.end_phase(state, events)
        return
    fig = state.figures[action.option]
    state.add_to_set("acted", fig.id)
    if r.terrain(state).contact_enemies(fig) and not state.in_set("initiated", fig.id):
        # In contact since a fight earlier this turn: the contact rule applies where it stands.
        start_combat(r, state, fig.id, events)
    elif r.closed_doors(state, fig):
        state.step = Door(fig.id)
    else:
        state.step = MoveRoll(fig.id)


def settle_select(r: FantasyBattle, state: GameState, step: Select, events: list[Event]) -> bool:
    if r.selectable(state):
        return False
    name = r.active_name(state)
    said = _("{whose} figures have all acted.", whose=possessive(name))
    events.append(Event("turn_ended", said, {}))
    r.end_phase(state, events)
    return True


# -- doors -----------------------------------------------------------------------------------------------
def prompt_door(r: FantasyBattle, state: GameState, step: Door) -> Prompt:
    fig = state.figures[step.figure]
    assert fig.hex is not None
    opts = []
    for e in r.closed_doors(state, fig):
        lab, beyond = r.board.edge_label(e), e.other(fig.hex)  # the option's hex: where the door leads
        if state.doors[e] == "locked":
            opts.append(Option(f"unlock:{lab}", _("try the locked door {door} (1d6: {at}–6 opens)", door=lab,
                                                  at=UNLOCK_AT), beyond))
        else:
            opts.append(Option(f"open:{lab}", _("open the door {door}", door=lab), beyond))
    opts.append(Option("move", _("leave the door shut and move")))
    return Prompt(
        PromptKind.CHOOSE,
        fig.side,
        _("{side}: {name} stands at a door — open it, or just move?", side=r.sname(fig.side), name=r.fname(fig.id)),
        figure=fig.id,
        options=tuple(opts),
    )


def apply_door(r: FantasyBattle, state: GameState, step: Door, action: Choose, events: list[Event]) -> None:
    if action.option == "move":
        state.step = MoveRoll(step.figure)
        return
    verb_, lab = action.option.split(":", 1)
    if verb_ == "unlock":
        state.step = Unlock(step.figure, lab)
        return
    open_door(r, state, step.figure, r.edge_by_label(lab), events)


def open_door(r: FantasyBattle, state: GameState, fid: str, e: Edge, events: list[Event]) -> None:
    """The door opens; an enemy in the hex beyond means combat at once and the end of the move."""
    fig = state.figures[fid]
    assert fig.hex is not None
    state.doors[e] = "open"
    events.append(
        Event(
            "door_opened",
            _("{name} opens the door {door}.", name=r.fname(fid), door=r.board.edge_label(e)),
            {"figure": fid, "edge": [e.a.q, e.a.r, e.b.q, e.b.r]},
        )
    )
    beyond = state.figure_at(e.other(fig.hex))
    if beyond is not None and beyond.side != fig.side:
        events.append(
            Event(
                "ambush",
                _("{enemy} stands behind the door: combat at once, {owner} move ends.", enemy=r.fname(beyond.id),
                  owner=possessive(r.fname(fid))),
                {"figure": fid, "enemy": beyond.id},
            )
        )
        state.add_to_set("initiated", fid)
        fight(r, state, fid, beyond.id, events)
    else:
        state.step = MoveRoll(fid)


def prompt_unlock(r: FantasyBattle, state: GameState, step: Unlock) -> Prompt:
    fig = state.figures[step.figure]
    name = r.fname(fig.id)
    return Prompt(
        PromptKind.ROLL,
        fig.side,
        _("{side}: roll 1d6 for {name} at the locked door — {at}–6 opens it and {name} moves (an enemy behind the "
          "door means combat at once instead), 1–{below} fails and the move ends.", side=r.sname(fig.side), name=name,
          at=UNLOCK_AT, below=UNLOCK_AT - 1),
        figure=fig.id,
        dice=(r.die(fig.side, _("locked door"), fig.id),),
        outcomes=((Outcome(1, UNLOCK_AT - 1, _("stays locked")), Outcome(UNLOCK_AT, 6, _("opens"))),),
        chances=(Chance(_("the door opens"), (7 - UNLOCK_AT) / 6), Chance(_("stays locked"), (UNLOCK_AT - 1) / 6)),
    )


def apply_unlock(r: FantasyBattle, state: GameState, step: Unlock, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    events.append(r.rolled(roll, _("Lock roll for {name}", name=r.fname(step.figure))))
    if v >= UNLOCK_AT:
        open_door(r, state, step.figure, r.edge_by_label(step.door), events)
    else:
        events.append(
            Event("lock_held", _("The lock holds; {owner} move ends.", owner=possessive(r.fname(step.figure))),
                  {"figure": step.figure})
        )
        state.step = Select()


# -- the move -------------------------------------------------------------------------------------------------
def up_to(n: int) -> str:
    """"up to 3 hexes" / 「最大3ヘクス」."""
    return _("up to {n} hexes", n=n)


def prompt_move_roll(r: FantasyBattle, state: GameState, step: MoveRoll) -> Prompt:
    fig = state.figures[step.figure]
    return Prompt(
        PromptKind.ROLL,
        fig.side,
        _("{side}: roll 1d6 for {name} — 5–6 moves up to {long} hexes, 1–4 up to {short}.", side=r.sname(fig.side),
          name=r.fname(fig.id), long=MOVE_LONG, short=MOVE_SHORT),
        figure=fig.id,
        dice=(r.die(fig.side, _("movement"), fig.id),),
        outcomes=((Outcome(1, 4, up_to(MOVE_SHORT)), Outcome(5, 6, up_to(MOVE_LONG))),),
        chances=(Chance(up_to(MOVE_LONG), 2 / 6), Chance(up_to(MOVE_SHORT), 4 / 6)),
    )


def apply_move_roll(r: FantasyBattle, state: GameState, step: MoveRoll, roll: Roll, events: list[Event]) -> None:
    (v,) = roll.values
    allowance = MOVE_LONG if v >= 5 else MOVE_SHORT
    events.append(r.rolled(roll, _("Movement roll for {name}", name=r.fname(step.figure)), up_to(allowance)))
    fig = state.figures[step.figure]
    assert fig.hex is not None
    state.step = MoveStep(step.figure, allowance, fig.hex)


def prompt_move(r: FantasyBattle, state: GameState, step: MoveStep) -> Prompt:
    fig = state.figures[step.figure]
    return Prompt(
        PromptKind.MOVE,
        fig.side,
        _("{side}: move {name} up to {n} hexes (or leave it where it is). Entering a hex next to an enemy stops the "
          "move and starts a fight.", side=r.sname(fig.side), name=r.fname(fig.id), n=step.allowance),
        figure=fig.id,
        moves=r.reachable(state, fig.id),
    )


def apply_move(r: FantasyBattle, state: GameState, step: MoveStep, action: Move, events: list[Event]) -> None:
    fid = step.figure
    moves = r.reachable(state, fid)
    fig = state.figures[fid]
    start = fig.hex
    assert start is not None
    fig.hex = action.to
    if action.to == start:
        events.append(Event("stayed", _("{name} stays at {cell}.", name=r.fname(fid), cell=r.label(start)),
                            {"figure": fid}))
    else:
        events.append(
            Event(
                "moved",
                _("{name} moves from {start} to {end}.", name=r.fname(fid), start=r.label(start),
                  end=r.label(action.to)),
                {
                    "figure": fid,
                    "from": [start.q, start.r],
                    "to": [action.to.q, action.to.r],
                    "path": [[h.q, h.r] for h in moves[action.to].path],
                },
            )
        )
        pick_up(r, state, fig, events)
    if action.to != start and r.terrain(state).contact_enemies(fig) and not state.in_set("initiated", fid):
        start_combat(r, state, fid, events)
    else:
        state.step = Select()


STAGES = (
    Stage(Select, prompt_select, apply_select, settle_select),
    Stage(Door, prompt_door, apply_door),
    Stage(Unlock, prompt_unlock, apply_unlock),
    Stage(MoveRoll, prompt_move_roll, apply_move_roll),
    Stage(MoveStep, prompt_move, apply_move),
)
