"""A Filtwiz turn as stages: the player's characters act one at a time — move, then attack — and the GM
gives the verdict on each character the attack reaches (the hit and dodge rolls and the damage stay at
the table, on the players' sheets; the engine asks only what the board needs to know). An attack whose
line of sight only touches a blocking hex's boundary waits for the GM's sight ruling on that line
(「判断が難しい場合は最終的にＧＭが決定します」): the prompt draws the line and the hexes it touches."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Move
from engine.events import Event
from engine.flow.machine import Stage
from engine.i18n import N_, gettext_for, ngettext_for
from engine.lines import Sight
from engine.overlays import CellMark, LineMark, Overlay
from engine.prompts import Option, Prompt, PromptKind
from engine.state import GameState
from engine.texts import join_words

from .situation import PRONE
from .steps import ChooseAttack, Judge, MoveCharacter, PickCharacter, RuleSight

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

if TYPE_CHECKING:
    from .rules import AttackOption, Filtwiz

ACTED = "acted"
END_TURN = "end"
NO_ATTACK = "none"
VERDICTS: tuple[tuple[str, str], ...] = (
    ("out", N_("hit: {t} is out (★気絶, 0 HP or below)")),
    ("prone", N_("hit: {t} falls ☆prone")),
    ("hit", N_("hit: {t} takes the damage and fights on")),
    ("miss", N_("missed (dodged, or no damage got through)")),
)


# -- pick ----------------------------------------------------------------------------------------------
def waiting(r: Filtwiz, state: GameState) -> list[str]:
    """The active player's characters still to act this turn."""
    sides = r.player_sides(state)
    return sorted(f.id for f in state.alive() if f.side in sides and not state.in_set(ACTED, f.id))


def prompt_pick(r: Filtwiz, state: GameState, step: PickCharacter) -> Prompt:
    options = tuple(Option(fid, _("{name} at {hex}", name=r.name_of(fid), hex=r.where(state, fid)),
                           state.figures[fid].hex, fid)
                    for fid in waiting(r, state))
    return Prompt(PromptKind.CHOOSE, r.player_sides(state)[0],
                  _("{side}: which character acts next?", side=r.active_name(state)),
                  options=(*options, Option(END_TURN, _("end the turn (the others do nothing)"))))


def start(r: Filtwiz, state: GameState, fid: str, events: list[Event]) -> None:
    here = state.figures[fid].hex
    assert here is not None
    state.add_to_set(ACTED, fid)
    state.step = MoveCharacter(fid, r.allowance(state, fid), here)


def apply_pick(r: Filtwiz, state: GameState, step: PickCharacter, choice: Choose, events: list[Event]) -> None:
    if choice.option == END_TURN:
        events.append(Event("turn_ended", _("{side} ends the turn.", side=r.active_name(state)), {}))
        r.end_phase(state, events)
        return
    start(r, state, choice.option, events)


def settle_pick(r: Filtwiz, state: GameState, step: PickCharacter, events: list[Event]) -> bool:
    left = waiting(r, state)
    if not left:
        r.end_phase(state, events)
        return True
    if len(left) == 1:
        start(r, state, left[0], events)
        return True
    return False


# -- move ------------------------------------------------------------------------------------------------
def prompt_move(r: Filtwiz, state: GameState, step: MoveCharacter) -> Prompt:
    fig = state.figures[step.figure]
    name = r.name_of(step.figure)
    if state.in_set(PRONE, step.figure):
        text = _("{name} is prone and spends the move getting up: leave it at {hex}.", name=name,
                 hex=r.label(step.start))
    else:
        text = _n("{side}: move {name} up to {n} hex (or leave it where it is). {note}",
                  "{side}: move {name} up to {n} hexes (or leave it where it is). {note}", step.allowance,
                  side=r.side_name(fig.side), name=name, note=r.move_note(state, step.figure))
    return Prompt(PromptKind.MOVE, fig.side, text, figure=fig.id, moves=r.reachable(state, fig.id))


def apply_move(r: Filtwiz, state: GameState, step: MoveCharacter, move: Move, events: list[Event]) -> None:
    name = r.name_of(step.figure)
    if state.in_set(PRONE, step.figure):
        state.turn_sets[PRONE].remove(step.figure)
        events.append(Event("stood_up", _("{name} gets up.", name=name), {"figure": step.figure}))
    elif move.to == step.start:
        events.append(Event("stayed", _("{name} stays at {hex}.", name=name, hex=r.label(step.start)),
                            {"figure": step.figure}))
    else:
        path = r.reachable(state, step.figure)[move.to].path
        state.put(step.figure, move.to)
        events.append(Event("moved", _("{name} moves from {start} to {to}.", name=name, start=r.label(step.start),
                                             to=r.label(move.to)), {
            "figure": step.figure, "from": [step.start.q, step.start.r], "to": [move.to.q, move.to.r],
            "path": [[h.q, h.r] for h in path]}))
    state.step = ChooseAttack(step.figure)


# -- attack ------------------------------------------------------------------------------------------------
def prompt_attack(r: Filtwiz, state: GameState, step: ChooseAttack) -> Prompt:
    fig = state.figures[step.figure]
    options = tuple(Option(u.id, u.label, u.hex, u.figure) for u in r.attack_options(state, step.figure))
    return Prompt(PromptKind.CHOOSE, fig.side, _("{name}: {skill} — use it?", name=r.name_of(step.figure),
                    skill=r.skill_words(step.figure)),
                  figure=step.figure, options=(*options, Option(NO_ATTACK, _("no attack this turn"))))


def apply_attack(r: Filtwiz, state: GameState, step: ChooseAttack, choice: Choose, events: list[Event]) -> None:
    if choice.option == NO_ATTACK:
        events.append(Event("no_attack", _("{name} does not attack.", name=r.name_of(step.figure)),
                            {"figure": step.figure}))
        state.step = PickCharacter()
        return
    chosen = next(u for u in r.attack_options(state, step.figure) if u.id == choice.option)
    go_ahead(r, state, step.figure, chosen, events)


def go_ahead(r: Filtwiz, state: GameState, fid: str, chosen: AttackOption, events: list[Event]) -> None:
    """The attack goes ahead — unless a line of sight it needs only touches a blocking hex and the GM has not ruled
    on it yet: then the GM rules first."""
    pending = r.lines_to_rule(state, fid, chosen)
    if pending:
        state.step = RuleSight(fid, chosen.id, pending[0][0])
        return
    hit = tuple(f.id for f in chosen.use.hit)
    events.append(Event("attack", _("{name} attacks: {attack}.", name=r.name_of(fid), attack=chosen.label), {
        "figure": fid, "option": chosen.id, "hexes": [[h.q, h.r] for h in sorted(chosen.use.covered)],
        "targets": list(hit), "spared": dict(chosen.use.spared)}))
    state.step = Judge(fid, hit, chosen.label) if hit else PickCharacter()


def settle_attack(r: Filtwiz, state: GameState, step: ChooseAttack, events: list[Event]) -> bool:
    """Nothing to attack: the character's action is over."""
    if r.attack_options(state, step.figure):
        return False
    state.step = PickCharacter()
    return True


# -- the GM's sight ruling -------------------------------------------------------------------------------------
SIGHT_VERDICTS = (Sight.CLEAR.value, Sight.BLOCKED.value)


def prompt_rule_sight(r: Filtwiz, state: GameState, step: RuleSight) -> Prompt:
    sit = r.situation(state)
    start = sit.figures[step.figure].hex
    touched = sit.sight.touched(start, step.towards)
    name, at, hexes = r.name_of(step.figure), r.label(step.towards), join_words(r.label(h) for h in touched)
    aimed = next((f.id for f in sit.at(step.towards)), None)
    why = _("{name}'s line of sight to {hex} only touches {hexes} (an edge or a corner)", name=name, hex=at,
            hexes=hexes)
    line = LineMark((start, step.towards), Sight.AMBIGUOUS.value, why, aimed, None, touched)
    shown = Overlay("sight_ruling", (CellMark(step.towards, "outline"),), (line,))
    options = (Option(Sight.CLEAR.value, _("clear: {name} sees {hex}, the attack goes ahead", name=name, hex=at)),
               Option(Sight.BLOCKED.value, _("blocked: {name} does not see {hex} and chooses again", name=name,
                                             hex=at)))
    # The rules let such a line through, but leave the final word to the GM: only the GM's tablet answers.
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  _("{why}: the rules let it through, and the GM has the final word. Clear or blocked?", why=why),
                  figure=step.figure, options=options, gm=True, overlay=shown,
                  note=_("the GM's sight ruling (「判断が難しい場合は最終的にＧＭが決定します」)"))


def apply_rule_sight(r: Filtwiz, state: GameState, step: RuleSight, choice: Choose, events: list[Event]) -> None:
    sit = r.situation(state)
    start = sit.figures[step.figure].hex
    state.rulings[sit.sight.ruling_key(start, step.towards)] = choice.option
    name, at = r.name_of(step.figure), r.label(step.towards)
    text = (_("The GM rules {name}'s line of sight to {hex} clear.", name=name, hex=at)
            if choice.option == Sight.CLEAR.value
            else _("The GM rules {name}'s line of sight to {hex} blocked.", name=name, hex=at))
    events.append(Event("sight_ruled", text, {"figure": step.figure, "from": [start.q, start.r],
                                              "to": [step.towards.q, step.towards.r], "verdict": choice.option}))
    chosen = next((u for u in r.attack_options(state, step.figure) if u.id == step.option), None)
    if chosen is None:  # ruled out of sight: the character picks its attack again (or none)
        state.step = ChooseAttack(step.figure)
    else:
        go_ahead(r, state, step.figure, chosen, events)


# -- the GM's verdict --------------------------------------------------------------------------------------------
def prompt_judge(r: Filtwiz, state: GameState, step: Judge) -> Prompt:
    target = step.targets[0]
    t = r.name_of(target)
    options = tuple(Option(key, _(text, t=t)) for key, text in VERDICTS)
    # The verdict is the GM's (the original: the GM has the final word), so only the GM's tablet gives it.
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  _("{name} ({attack}) against {t} — roll 〔命中〕 against 〔回避〕 at the table and apply the "
                    "damage on the sheets. What happened?", name=r.name_of(step.figure), attack=step.how, t=t),
                  figure=target, options=options, gm=True)


def apply_judge(r: Filtwiz, state: GameState, step: Judge, choice: Choose, events: list[Event]) -> None:
    target, rest = step.targets[0], step.targets[1:]
    t = r.name_of(target)
    if choice.option == "out":
        state.kill(target)
        events.append(Event("out", _("{t} is out (★気絶).", t=t), {"figure": target}))
    elif choice.option == "prone":
        state.add_to_set(PRONE, target)
        events.append(Event("prone", _("{t} falls prone.", t=t), {"figure": target}))
    elif choice.option == "hit":
        events.append(Event("hit", _("{t} is hit and fights on.", t=t), {"figure": target}))
    else:
        events.append(Event("missed", _("{name} misses {t}.", name=r.name_of(step.figure), t=t), {"figure": target}))
    alive = tuple(f for f in rest if state.figures[f].alive)
    state.step = Judge(step.figure, alive, step.how) if alive else PickCharacter()


STAGES = (
    Stage(PickCharacter, prompt_pick, apply_pick, settle_pick),
    Stage(MoveCharacter, prompt_move, apply_move),
    Stage(ChooseAttack, prompt_attack, apply_attack, settle_attack),
    Stage(RuleSight, prompt_rule_sight, apply_rule_sight),
    Stage(Judge, prompt_judge, apply_judge),
)
