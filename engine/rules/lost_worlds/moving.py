"""The movement phase: each character spends movement points equal to its height on the movement chart.

A character's move is a series of chart actions, one prompt each, listing what it may do now with the
cost: enter an adjacent space (a move on one level, climbing or descending 1 per level), a forced drop,
jumping over a space or onto an enemy, running, blocking or pushing an enemy, throwing, standing up, …
Starred actions never share a turn with a run. Entering an enemy's battle range lets that enemy block
the mover (its move ends there) unless the mover came into the enemy's back space. When the move is
over the player names the character's back space.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from engine.actions import Choose
from engine.cell_graph import KeptGraphs
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.words import possessive
from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.pathfinding import Reach, reachable
from engine.prompts import Option, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import blocking, chart, height, objects, scenario_fields
from .condition import (
    CARRY_PAID,
    COUP,
    DOWN,
    ESCAPED,
    HARD_PUSHER,
    HELD,
    IMMATERIAL,
    MANA,
    MANA_LEFT,
    MP,
    OFF_BALANCE,
    RAN,
    RAN_LAST_TURN,
    REGEN,
    STARRED,
    balance,
    conscious,
    set_balance,
)
from .spaces import back_space, beyond, facing_for_back
from .steps import Act, AskBlock, DropRoll, NameBack, OntoRoll, PickMover, PushRoll, ThrowHit

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)

MOVED_SET = "moved"  # the characters that have moved this turn
MANA_PER_TURN = 2


@dataclass(frozen=True)
class ChartChoice:
    """One thing a character may do now: the prompt's option and what it does."""

    option: Option
    action: str  # a movement chart id, or "end"
    cost: int = 0
    to: Hex | None = None
    target: str | None = None
    extra: dict[str, object] = field(default_factory=dict)


# -- who moves -------------------------------------------------------------------------------------------
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


def mp(fig: FigureState) -> int:
    return int(fig.values.get(MP, 0))


def spend(fig: FigureState, points: int) -> None:
    fig.values[MP] = max(0, mp(fig) - points)


# -- what a character may do now ---------------------------------------------------------------------------
def may_run(fig: FigureState) -> bool:
    """Not two turns running, not after a starred action, not while down or held."""
    return not (fig.flag(RAN) or fig.flag(RAN_LAST_TURN) or fig.flag(STARRED) or fig.flag(DOWN)
                or fig.flag(HELD))


def _starred_ok(fig: FigureState) -> bool:
    return not fig.flag(RAN)


def _step_cost(r: LostWorlds, a: Hex, b: Hex) -> int:
    return height.step_cost(r.board.level(a), r.board.level(b), chart.cost("move"), chart.cost("climb"))


def _entry_cost(r: LostWorlds, fig: FigureState, a: Hex, b: Hex) -> int:
    return chart.cost("crawl") if fig.flag(DOWN) else _step_cost(r, a, b)


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
        if fig.flag(OFF_BALANCE) and left >= chart.cost("regain_balance") and _starred_ok(fig):
            out.append(_self(r, "regain_balance", fid))
        return out
    lvl = r.board.level(here)
    down = fig.flag(DOWN)
    for n in r.spaces.steps(here):
        dl = r.board.level(n) - lvl
        enemy_there = [o for o in r.spaces.others_conscious(state, n, fid) if o.side != fig.side]
        if down:
            c = chart.cost("crawl")
            if dl == 0 and c <= left and _starred_ok(fig) and _entry_ok(r, state, fig, n, left - c):
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
        c = _step_cost(r, here, n)
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
    budget = _jump_budget(fig, left) if c.action == "jump" else left
    if c.cost + due > budget:
        return None
    item = objects.large_carried(r, fig)
    label = _("{label}, carrying the {object} (+{cost} MP)", label=c.option.label,
              object=objects.name(r, item or ""), cost=due)
    return replace(c, option=replace(c.option, label=label), cost=c.cost + due, extra={**c.extra, "carry": due})


def _self(r: LostWorlds, action: str, fid: str, text: str = "") -> ChartChoice:
    row = chart.action(action)
    cost = _("{cost} MP", cost=row.cost) if not row.all_points else _("all movement points")
    said = dict(action=text or row.name, cost=cost)
    label = _("{action} ({cost}, starred)", **said) if row.starred else _("{action} ({cost})", **said)
    return ChartChoice(Option(action, label), action, row.cost)


def _jump_budget(fig: FigureState, left: int) -> int:
    """The points a jump may spend: a jump makes a character that has not run yet run, so the run's bonus counts."""
    return left + (chart.run_bonus() if not fig.flag(RAN) else 0)


def _jumps(r: LostWorlds, state: GameState, fig: FigureState, here: Hex, left: int) -> list[ChartChoice]:
    c = chart.cost("jump")
    runs = not fig.flag(RAN)
    if runs and not may_run(fig):
        return []
    budget = _jump_budget(fig, left)
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
    if state_now == "down" and left >= chart.cost("stand_up") and _starred_ok(fig):
        out.append(_self(r, "stand_up", fid))
    if state_now == "off_balance" and left >= chart.cost("regain_balance") and _starred_ok(fig):
        out.append(_self(r, "regain_balance", fid))
    if state_now != "down":
        out.append(_self(r, "lie_down", fid))
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


def throw_range(r: LostWorlds, thrower: FigureState, target: FigureState) -> int:
    """The longest throw: height + 2, +1 per level the target stands lower."""
    assert thrower.hex is not None and target.hex is not None
    t = chart.throwing()
    lower = max(0, r.board.level(thrower.hex) - r.board.level(target.hex))
    return r.height(thrower.id) + t["range_over_height"] + t["per_level_lower"] * lower


def _enemy_actions(r: LostWorlds, state: GameState, fig: FigureState, left: int) -> list[ChartChoice]:
    out: list[ChartChoice] = []
    down = fig.flag(DOWN)
    if not down and _starred_ok(fig) and left >= chart.cost("block"):  # any enemy next to it, whatever the height
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
        if other.side != fig.side and other.alive and not conscious(other) and left >= 1 and _starred_ok(fig):
            out.append(ChartChoice(Option(f"coup-{other.id}", _("coup de grâce on {name} (all movement points: +3 to "
                                                                "its recovery die)", name=r.name_of(other.id)),
                                          other.hex, other.id),
                                   "coup_de_grace", left, target=other.id))
    return out


def _why_starred(r: LostWorlds, fig: FigureState, action: str, left: int) -> str:
    """Why a chart action cannot be paid now (its points, a run this turn), or ""."""
    row = chart.action(action)
    if row.starred and fig.flag(RAN):
        return _("{action} is starred: not in a turn {name} runs", action=row.name, name=r.name_of(fig.id))
    if left < row.cost:
        return _("{action} costs {cost} MP; {left} left", action=row.name, cost=row.cost, left=left)
    return ""


def _why_own_space(r: LostWorlds, fig: FigureState, what: str, at: Hex, action: str, left: int) -> str:
    """Why an action on the object ``what`` lying at ``at``, taken from the character's own space, is refused, or ""."""
    if at != fig.hex:
        return _("the {object} lies at {space}, not in {owner} space", object=what, space=r.label(at),
                 owner=possessive(r.name_of(fig.id)))
    return _why_starred(r, fig, action, left)


def object_actions(r: LostWorlds, state: GameState, fig: FigureState, left: int) -> list[tuple[ChartChoice, str]]:
    """Every action on an object the character might take (pick up, drop, throw, examine, push), each with the
    reason it is refused now ("" when it is offered)."""
    here = fig.hex
    if here is None:
        return []
    out: list[tuple[ChartChoice, str]] = []
    name = r.name_of(fig.id)
    carried_large = objects.large_carried(r, fig)
    for token, at in sorted(state.tokens.items()):
        if at is None:
            continue
        what = objects.name(r, token)
        large = objects.is_large(r, token)
        cost = chart.cost("pick_up")
        text = _("pick up the {object} ({cost} MP, starred; large: carrying it costs 1 MP a turn, drop it to attack)",
                 object=what, cost=cost) if large else _("pick up the {object} ({cost} MP, starred)", object=what,
                                                          cost=cost)
        # Small things: the auto player and the tablets see the character's own space and the character.
        option = Option(f"pickup-{token}", text, None if large else here, None if large else fig.id)
        why = _why_own_space(r, fig, what, at, "pick_up", left)
        if not why and large and carried_large is not None:
            why = _("{name} already carries a large object, the {object}", name=name,
                    object=objects.name(r, carried_large))
        out.append((ChartChoice(option, "pick_up", cost, extra={"token": token}), why))
        o = objects.spec(r, token)
        if o is not None and o.examine:
            cost = chart.cost("examine")
            option = Option(f"examine-{token}", _("examine the {object} ({cost} MP, starred)", object=what, cost=cost),
                            here, fig.id)
            why = _why_own_space(r, fig, what, at, "examine", left)
            if not why and token in objects.examined(fig):
                why = _("{name} has examined the {object} already", name=name, object=what)
            out.append((ChartChoice(option, "examine", cost, extra={"token": token}), why))
        if large and at in r.board.neighbours(here):
            out.append(_push_object(r, state, fig, token, at, left))
    spots = [here, *r.spaces.steps(here)]  # its own space or any in its battle range
    for item in dict.fromkeys(fig.carrying):
        what = objects.name(r, item)
        for spot in spots:
            text = _("drop the {object} here (0 MP)", object=what) if spot == here \
                else _("drop the {object} at {space} (0 MP)", object=what, space=r.label(spot))
            why = ""
            if spot != here and objects.is_large(r, item) and objects.large_at(r, state, spot) is not None:
                why = _("{space} holds a large object already", space=r.label(spot))
            out.append((ChartChoice(Option(f"dropw-{item.replace(' ', '_')}-{r.label(spot)}", text),  # the figure stays
                                    "drop", 0, spot, extra={"weapon": item}), why))
    ranges = chart.effective_ranges()
    enemies = sorted((e for e in state.alive() if e.side != fig.side and conscious(e)), key=lambda e: e.id)
    for item in dict.fromkeys(fig.carrying):
        if not objects.throwable(r, item):
            continue
        for enemy in enemies:
            assert enemy.hex is not None
            dist = here.distance(enemy.hex)
            longest = throw_range(r, fig, enemy)
            far = dist > ranges[objects.kind(r, item)]
            said = dict(object=objects.name(r, item), name=r.name_of(enemy.id), spaces=dist, cost=chart.cost("throw"))
            text = _("throw the {object} at {name}, {spaces} spaces ({cost} MP, beyond its effective range: damage -1)",
                     **said) if far else _("throw the {object} at {name}, {spaces} spaces ({cost} MP)", **said)
            why = _why_starred(r, fig, "throw", left)
            if not why and dist > longest:
                why = _("{target} is {spaces} spaces away; the longest throw is {longest} (height + 2, +1 per level "
                        "lower)", target=r.name_of(enemy.id), spaces=dist, longest=longest)
            elif not why and dist < 1:
                why = _("{target} stands in {owner} space", target=r.name_of(enemy.id), owner=possessive(name))
            out.append((ChartChoice(Option(f"throw-{item.replace(' ', '_')}-{enemy.id}", text, enemy.hex, enemy.id),
                                    "throw", chart.cost("throw"), target=enemy.id,
                                    extra={"weapon": item, "beyond": far}), why))
    return out


def _push_object(r: LostWorlds, state: GameState, fig: FigureState, token: str, at: Hex,
                 left: int) -> tuple[ChartChoice, str]:
    """Push a large object next to the character one space straight on (the rule document gives no rule: see
    :mod:`.objects`)."""
    assert fig.hex is not None
    to = beyond(fig.hex, at)
    what = objects.name(r, token)
    cost = chart.cost("push_object")
    option = Option(f"pushobj-{token}", _("push the {object} from {space} to {to} ({cost} MP)", object=what,
                                          space=r.label(at), to=r.label(to) if to in r.board else "-", cost=cost), to)
    why = _why_starred(r, fig, "push_object", left)
    if not why and fig.flag(DOWN):
        why = _("{name} is down", name=r.name_of(fig.id))
    if not why and not r.spaces.open_side(fig.hex, at):
        why = _("a wall stands between {name} and the {object}", name=r.name_of(fig.id), object=what)
    if not why:
        if to not in r.board or not r.spaces.standable(to) or not r.spaces.open_side(at, to):
            why = _("nothing can stand beyond the {object}", object=what)
        elif r.board.level(to) > r.board.level(at):
            why = _("{to} is higher than the {object}: it is pushed along its level or off an edge, never up",
                    to=r.label(to), object=what)
        elif state.figures_at(to):
            why = _("a character is at {to}", to=r.label(to))
        elif objects.large_at(r, state, to) is not None:
            why = _("{to} holds a large object already", to=r.label(to))
    return ChartChoice(option, "push_object", cost, to, extra={"token": token}), why


def refusals(r: LostWorlds, state: GameState, fid: str) -> dict[str, str]:
    """Why each action on an object the character is not offered now is refused, by option id."""
    fig = state.figures[fid]
    return {c.option.id: why for c, why in object_actions(r, state, fig, mp(fig)) if why}


def drop_weapon(state: GameState, fig: FigureState, weapon: str | None = None, at: Hex | None = None) -> str | None:
    """Put a carried weapon or object (the first, unless named) on the character's space (or ``at``); returns it."""
    if not fig.carrying:
        return None
    w = weapon if weapon in fig.carrying else fig.carrying[0]
    assert w is not None
    objects.put_down(state, fig, w, at if at is not None else fig.hex)
    return w


# -- the prompt and its answer -------------------------------------------------------------------------------
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


MOVE_TO, CLIMB_TO = N_("move to {space} (level {level}, {cost} MP)"), N_("climb to {space} (level {level}, {cost} MP)")
CLIMB_DOWN_TO = N_("climb down to {space} (level {level}, {cost} MP)")
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


# -- the back space -------------------------------------------------------------------------------------------
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


# -- the costed reach, for the tablets --------------------------------------------------------------------
_GRAPHS = KeptGraphs()  # each board's movement graph: the steps a board allows and their price by level


def reach(r: LostWorlds, state: GameState, fid: str) -> Mapping[Hex, Reach]:
    """Where the character could walk with its movement points left (its height when not moving)."""
    fig = state.figures[fid]
    if fig.hex is None or not conscious(fig):
        return {}
    budget = mp(fig) if isinstance(state.step, Act) and state.step.figure == fid else r.height(fid)
    budget = max(0, budget - objects.carry_due(r, fig))  # a load it cannot carry further: it stays where it is

    def board_cost(a: Hex, b: Hex) -> float | None:
        return float(_step_cost(r, a, b)) if b in r.spaces.steps(a) else None

    held = {f.hex for f in state.alive() if f.hex is not None and f.id != fid}
    return _GRAPHS.of(r.board, board_cost).reachable(
        fig.hex, budget,
        blocked={h for h in held if r.spaces.can_enter(state, fig, h)},
        keep_out={h for h in held if r.spaces.others_conscious(state, h, fid)},
    )


def reach_reference(r: LostWorlds, state: GameState, fid: str) -> dict[Hex, Reach]:
    """``reach`` through the general search and the rules' own step cost (what the fast form must match)."""
    fig = state.figures[fid]
    if fig.hex is None or not conscious(fig):
        return {}
    budget = mp(fig) if isinstance(state.step, Act) and state.step.figure == fid else r.height(fid)

    def cost(a: Hex, b: Hex) -> float | None:
        if b not in r.spaces.steps(a) or r.spaces.can_enter(state, fig, b):
            return None
        return float(_step_cost(r, a, b))

    return reachable(fig.hex, budget, cost, can_end=lambda h: not r.spaces.others_conscious(state, h, fid))


def why_not(r: LostWorlds, state: GameState, fid: str, to: Hex) -> str:
    fig = state.figures[fid]
    if to not in r.board:
        return _("{space} is not on the map", space=r.label(to))
    if not r.spaces.standable(to):
        return _("{space} cannot be stood on", space=r.label(to))
    why = r.spaces.can_enter(state, fig, to)
    if why:
        return _("{space}: {why}", space=r.label(to), why=why)
    return _("{space} is beyond {owner} movement points", space=r.label(to), owner=possessive(r.name_of(fid)))


STAGES = (
    Stage(PickMover, prompt_pick, apply_pick, settle_pick),
    Stage(Act, prompt_act, apply_act),
    Stage(AskBlock, blocking.prompt_block, blocking.apply_block),
    Stage(NameBack, prompt_back, apply_back),
)
