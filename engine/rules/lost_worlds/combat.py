"""The combat phase: melee in the Lost Worlds books, at most three book rounds, recorded as the books decide.

Players in initiative order may start a combat between one of their characters and an enemy in its
battle range. The engine names the page each player opens — the first row of the start table that holds
(a you off-balance or down → 1; b the enemy in your back space → 23; c you in the enemy's back space → 21;
d the enemy down → 41; e the enemy off-balance → 19; f otherwise → 57) — and each side's height modifier
(effective height = height + level). After each book round the players enter what their books decided:
the damage and whether the character ended off-balance, knocked down, dropped its weapon or escaped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose
from engine.board import Terrain
from engine.events import Event
from engine.flow.machine import Stage
from engine.hexes import Hex
from engine.i18n import N_, gettext_for, ngettext_for
from engine.prompts import Option, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import chart, height, objects
from .condition import ESCAPED, FOUGHT, HELD, balance, conscious, hurt, out_of_fight, set_balance
from .object_actions import drop_weapon
from .spaces import LOW_OBSTACLE_HEIGHT, back_space
from .steps import BookRound, PickFight

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

MAX_ROUNDS = 3
MAX_DAMAGE = 20
STATES = (
    ("normal", N_("normal"), False), ("off", N_("off-balance"), False), ("down", N_("knocked down"), False),
    ("normal-drop", N_("normal, dropped its weapon"), True), ("off-drop", N_("off-balance, dropped its weapon"), True),
    ("down-drop", N_("knocked down, dropped its weapon"), True),
    ("escaped", N_("escaped (may disengage next move)"), False),
)


def start_page(me: FigureState, opponent: FigureState) -> tuple[int, str]:
    """The page ``me`` opens at the start of a combat phase and why: the first row of the table that holds."""
    holds = {
        "self_off_balance_or_down": balance(me) != "normal",
        "opponent_in_back_space": opponent.hex is not None and opponent.hex == back_space(me),
        "in_opponent_back_space": me.hex is not None and me.hex == back_space(opponent),
        "opponent_down": balance(opponent) == "down",
        "opponent_off_balance": balance(opponent) == "off_balance",
        "otherwise": True,
    }
    for condition, page, text in chart.start_pages():
        if holds[condition]:
            return page, text
    raise AssertionError("the start table ends with 'otherwise'")


def page_text(r: LostWorlds, me: FigureState, opponent: FigureState) -> str:
    """"Dwarf: open your book at page 23: the enemy is in your back space"."""
    page, why = start_page(me, opponent)
    return _("{name}: open your book at page {page}: {why}", name=r.name_of(me.id), page=page, why=why)


def modifier_text(r: LostWorlds, a: FigureState, b: FigureState) -> str:
    """Effective heights and the height modifier of this combat phase."""
    assert a.hex is not None and b.hex is not None
    la, lb = r.board.level(a.hex), r.board.level(b.hex)
    ha, hb = r.height(a.id), r.height(b.id)
    diff = height.height_modifier(ha, la, hb, lb)
    eff = _("effective height {a} {ha} + level {la} = {ea}, {b} {hb} + level {lb} = {eb}", a=r.name_of(a.id), ha=ha,
            la=la, ea=ha + la, b=r.name_of(b.id), hb=hb, lb=lb, eb=hb + lb)
    if diff == 0:
        return _("{heights}: no height modifier", heights=eff)
    better = a if diff > 0 else b
    return _("{heights}: {modifier:+d} to the {name} this combat phase", heights=eff, modifier=abs(diff),
             name=r.name_of(better.id))


def restrictions(r: LostWorlds, state: GameState, fig: FigureState) -> list[str]:
    """The optional obstacle rules: which book manoeuvres the character may not use now.

    Tall means at least the character's height: a blocking space (a wall, a pillar) or a space that many levels
    higher is tall terrain, whatever stands on it; a low obstacle is an object one level tall. Unconscious
    characters count as objects. For the side swing each neighbouring space counts once.
    """
    if fig.hex is None:
        return []
    lvl = r.board.level(fig.hex)
    tall_things = sum(_tall_space(r, state, fig, n) for n in r.board.neighbours(fig.hex))
    crowd = 0
    for n in r.board.neighbours(fig.hex):
        crowd += int(r.board.terrain(n) == Terrain.LOW_OBSTACLE)
        # characters in battle range, and unconscious ones (objects)
        crowd += sum(1 for o in state.figures_at(n) if r.spaces.in_range(fig, o) or (o.alive and not conscious(o)))
    out = []
    if tall_things >= 2:
        out.append(_("no side swing (two or more tall things or friends in its battle range)"))
    if crowd >= 2:
        out.append(_("no dodge (two or more characters or objects in its battle range)"))
    back = back_space(fig)
    if back is not None and back in r.board and (not r.spaces.standable(back) or r.board.level(back) - lvl >= 1
                                                 or state.figures_at(back)):
        out.append(_("no jump back (an obstacle of a level or more in its back space)"))
    return out


def _tall_space(r: LostWorlds, state: GameState, fig: FigureState, n: Hex) -> bool:
    """Whether a neighbouring space counts against the side swing: tall terrain (a wall between, a blocking space,
    or a space higher than the character's own by at least its height, whatever stands on it), a tall object (a
    low obstacle, for a character of its height or less) or a friend in battle range. Once per space."""
    assert fig.hex is not None
    tall = r.height(fig.id)
    if not r.spaces.standable(n) or not r.spaces.open_side(fig.hex, n):
        return True
    if r.board.level(n) - r.board.level(fig.hex) >= tall:
        return True
    if r.board.terrain(n) == Terrain.LOW_OBSTACLE and tall <= LOW_OBSTACLE_HEIGHT:
        return True
    return any(o.side == fig.side and conscious(o) and r.spaces.in_range(fig, o) for o in state.figures_at(n))


# -- starting combats --------------------------------------------------------------------------------------
def fights(r: LostWorlds, state: GameState) -> list[tuple[str, str]]:
    """(own character, enemy) pairs the player whose combat turn it is may start."""
    sides = r.player_sides(state)
    # A character carrying a large object must drop it to attack (the movement chart).
    mine = [f for f in state.alive() if f.side in sides and conscious(f) and not f.flag(FOUGHT) and not f.flag(HELD)
            and objects.large_carried(r, f) is None]
    out = []
    for a in mine:
        for b in sorted(r.spaces.enemies_in_range(state, a), key=lambda e: e.id):
            if not b.flag(FOUGHT):
                out.append((a.id, b.id))
    return out


def prompt_pick(r: LostWorlds, state: GameState, step: PickFight) -> Prompt:
    options = [Option(f"{a}:{b}", _("{name} fights {enemy}", name=r.name_of(a), enemy=r.name_of(b)),
                      state.figures[b].hex, b)
               for a, b in fights(r, state)]
    options.append(Option("pass", _("no (more) combats")))
    return Prompt(PromptKind.CHOOSE, r.player_sides(state)[0],
                  _("{side}: start a combat with an enemy in battle range?", side=r.active_name(state)),
                  options=tuple(options))


def settle_pick(r: LostWorlds, state: GameState, step: PickFight, events: list[Event]) -> bool:
    from . import turn

    if fights(r, state):
        return False
    turn.next_combat_player(r, state, events)
    return True


def apply_pick(r: LostWorlds, state: GameState, step: PickFight, choice: Choose, events: list[Event]) -> None:
    from . import turn

    if choice.option == "pass":
        turn.next_combat_player(r, state, events)
        return
    a, b = choice.option.split(":")
    fa, fb = state.figures[a], state.figures[b]
    text = _("{page_a}. {page_b}. {heights}.", page_a=page_text(r, fa, fb), page_b=page_text(r, fb, fa),
             heights=modifier_text(r, fa, fb))
    if r.option("obstacle_restrictions"):
        for f in (fa, fb):
            limits = restrictions(r, state, f)
            if limits:
                text += _(" {name}: {limits}.", name=r.name_of(f.id), limits=_("; ").join(limits))
    pa, pb = start_page(fa, fb)[0], start_page(fb, fa)[0]
    events.append(Event("combat", _("Combat: {a} against {b}. {text}", a=r.name_of(a), b=r.name_of(b), text=text),
                        {"a": a, "b": b, "pages": {a: pa, b: pb}}))
    for f, o in ((fa, fb), (fb, fa)):
        f.mark(FOUGHT, True)
        state.turn_sets.setdefault(f"opponent:{f.id}", []).append(o.id)
    state.step = BookRound(a, b, 1, 0)


# -- the book rounds -------------------------------------------------------------------------------------------
def prompt_round(r: LostWorlds, state: GameState, step: BookRound) -> Prompt:
    fa, fb = state.figures[step.a], state.figures[step.b]
    head = _("Combat {a} against {b}, book round {round} of {rounds}", a=r.name_of(fa.id), b=r.name_of(fb.id),
             round=step.round, rounds=MAX_ROUNDS)
    if step.round == 1 and step.part == 0:
        head = _("{head} — {page_a}; {page_b}; {heights}", head=head, page_a=page_text(r, fa, fb),
                 page_b=page_text(r, fb, fa), heights=modifier_text(r, fa, fb))
    if step.part == 4:
        return Prompt(PromptKind.CHOOSE, fa.side, _("{head}: does another book round follow?", head=head),
                      options=(Option("go-on", _("play book round {round}", round=step.round + 1)),
                               Option("stop", _("the combat ends here"))))
    who = fa if step.part < 2 else fb
    name = r.name_of(who.id)
    if step.part in (0, 2):
        options = [Option(str(n), _("{n} damage to {name}", n=n, name=name), who.hex, who.id)
                   for n in range(1, MAX_DAMAGE + 1)]
        options.append(Option("0", _("no damage to {name}", name=name)))
        return Prompt(PromptKind.CHOOSE, who.side, _("{head}: how much damage did {name} take this round (its book's "
                                                     "page says)?", head=head, name=name),
                      figure=who.id, options=tuple(options))
    return Prompt(PromptKind.CHOOSE, who.side, _("{head}: how does {name} end the round?", head=head, name=name),
                  options=tuple(Option(sid, _(text)) for sid, text, _drops in STATES))


def apply_round(r: LostWorlds, state: GameState, step: BookRound, choice: Choose, events: list[Event]) -> None:
    fa, fb = state.figures[step.a], state.figures[step.b]
    who = fa if step.part < 2 else fb
    if step.part in (0, 2):
        n = int(choice.option)
        words = hurt(state, who, n)
        said = dict(name=r.name_of(who.id), n=n, words=words, round=step.round)
        text = _("{name} takes {n} damage and {words} (round {round}).", **said) if words \
            else _("{name} takes {n} damage (round {round}).", **said)
        events.append(Event("damage", text, {"figure": who.id, "damage": n, "round": step.round}))
        nxt = step.part + 1 if not out_of_fight(who) else step.part + 2
    elif step.part in (1, 3):
        sid, text, drops = next(s for s in STATES if s[0] == choice.option)
        if sid == "escaped":
            who.mark(ESCAPED, True)
        else:
            set_balance(who, {"normal": "normal", "off": "off_balance", "down": "down"}[sid.split("-")[0]])
        if drops:
            drop_weapon(state, who)
        events.append(Event("round_state", _("{name} ends round {round} {state}.", name=r.name_of(who.id),
                                             round=step.round, state=_(text)),
                            {"figure": who.id, "state": sid}))
        nxt = step.part + 1
    else:
        if choice.option == "go-on":
            state.step = BookRound(step.a, step.b, step.round + 1, 0)
        else:
            end_combat(r, state, step, events)
        return
    if nxt < 4:
        state.step = BookRound(step.a, step.b, step.round, nxt)
        return
    over = out_of_fight(fa) or out_of_fight(fb) or fa.flag(ESCAPED) or fb.flag(ESCAPED)
    if over or step.round >= MAX_ROUNDS:
        end_combat(r, state, step, events)
    else:
        state.step = BookRound(step.a, step.b, step.round, 4)


def end_combat(r: LostWorlds, state: GameState, step: BookRound, events: list[Event]) -> None:
    events.append(Event("combat_over", _n("The combat of {a} and {b} ends after {n} book round.",
                                          "The combat of {a} and {b} ends after {n} book rounds.", step.round,
                                          a=r.name_of(step.a), b=r.name_of(step.b)), {"a": step.a, "b": step.b}))
    state.step = PickFight()


STAGES = (Stage(PickFight, prompt_pick, apply_pick, settle_pick), Stage(BookRound, prompt_round, apply_round))
