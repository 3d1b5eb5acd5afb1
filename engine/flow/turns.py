"""Who acts when: roll-offs with re-rolls among the tied, and the turn-order mechanisms built on them.

- :class:`FixedOrder` — one roll-off at the start, then players take turns in that order (Fantasy Battle).
- :class:`InitiativeEachTurn` — a roll-off before every round (Lost Worlds' initiative).
- :class:`InitiativeEntered` — the players roll the initiative once as their game says and enter who won (Tenkey).
- :class:`Rounds` — no players' turns: every figure plays every phase, round after round (Laramie).
- :func:`order_by_value` — figures ordered by a value, ties left as groups for a roll-off (Laramie's phases).

A :class:`RollOff` step orders competitors (player indices or figure ids): each rolls one die, the
order follows the results, and tied competitors roll again among themselves until none are tied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from engine.actions import Choose, Roll
from engine.events import Event
from engine.flow.steps import Step, step
from engine.i18n import N_, gettext_for
from engine.prompts import Chance, DieRequest, Option, Outcome, Prompt, PromptKind
from engine.state import GameState
from engine.texts import agreeing, declared_text, join_list, possessive

if TYPE_CHECKING:
    from engine.scenario import Scenario

_ = gettext_for(__name__)
# Sentences in the two forms that agree with a name (Goblins roll / Red rolls), translated alike.
GOES_FIRST = (N_("{name} goes first"), N_("{name} go first"))


@step("order")
@dataclass(frozen=True)
class RollOff(Step):
    """Competitors in rank groups; a group of several is still tied and rolls next."""

    groups: tuple[tuple[str, ...], ...]
    purpose: str = N_("turn order")  # an English text looked up where shown (a rule set's own: already translated)
    sides: int = 6
    high_first: bool = True
    of: str = "players"  # "players" (indices into the scenario's players) or "figures" (figure ids)
    tied: bool = False

    def pending(self) -> tuple[str, ...]:
        """The first group that is still tied."""
        return next(g for g in self.groups if len(g) > 1)

    def settled(self) -> bool:
        return all(len(g) == 1 for g in self.groups)

    def order(self) -> tuple[str, ...]:
        return tuple(g[0] for g in self.groups)


def order_by_value(
    items: Iterable[str], value: Callable[[str], float], *, low_first: bool
) -> tuple[tuple[str, ...], ...]:
    """Items ranked by ``value``; equal values share a group, to be settled by a :class:`RollOff`."""
    by: dict[float, list[str]] = {}
    for item in items:
        by.setdefault(value(item), []).append(item)
    return tuple(tuple(by[v]) for v in sorted(by, reverse=not low_first))


def regroup(step: RollOff, values: Sequence[int]) -> RollOff:
    """The roll-off after the pending group rolled ``values``: split by result, ties kept together."""
    group = step.pending()
    gi = step.groups.index(group)
    by: dict[int, list[str]] = {}
    for c, v in zip(group, values, strict=True):
        by.setdefault(v, []).append(c)
    ranked = tuple(tuple(by[v]) for v in sorted(by, reverse=step.high_first))
    return replace(step, groups=step.groups[:gi] + ranked + step.groups[gi + 1 :], tied=True)


def roll_off_prompt(rules: TurnRules, state: GameState, s: RollOff) -> Prompt:
    group = s.pending()
    who = [rules.competitor(s.of, c) for c in group]
    # Figures rolling off: each die names its figure, so each column says whose order it settles.
    dice = tuple(DieRequest(side, s.sides, declared_text(type(rules), s.purpose), c if s.of == "figures" else None)
                 for c, (side, _name) in zip(group, who, strict=True))
    names = [name for _side, name in who]
    die = f"1d{s.sides}"
    purpose = declared_text(type(rules), s.purpose)
    if not s.tied:
        if s.of == "players":
            text = (_("Each player rolls {die} for the {purpose}: highest goes first.", die=die, purpose=purpose)
                    if s.high_first else
                    _("Each player rolls {die} for the {purpose}: lowest goes first.", die=die, purpose=purpose))
        else:
            text = (_("Each figure rolls {die} for the {purpose}: highest goes first.", die=die, purpose=purpose)
                    if s.high_first else
                    _("Each figure rolls {die} for the {purpose}: lowest goes first.", die=die, purpose=purpose))
    else:
        text = _("Tie for the {purpose}: {names} roll {die} again.", purpose=purpose, names=join_list(names), die=die)
    earlier = _("higher goes earlier") if s.high_first else _("lower goes earlier")
    return Prompt(
        PromptKind.ROLL,
        dice[0].roller,
        text,
        dice=dice,
        outcomes=tuple((Outcome(1, s.sides, earlier),) for _d in dice),
        chances=tuple(Chance(_(agreeing(name, *GOES_FIRST), name=name),
                             1 / len(names)) for name in names),
    )


def roll_off_apply(rules: TurnRules, state: GameState, s: RollOff, roll: Roll, events: list[Event]) -> None:
    group = s.pending()
    rolled = join_list(_("{name} {value}", name=rules.competitor(s.of, c)[1], value=v)
                        for c, v in zip(group, roll.values, strict=True))
    purpose = declared_text(type(rules), s.purpose)
    after = regroup(s, roll.values)
    data = {"values": list(roll.values), "virtual": roll.virtual}
    if not after.settled():
        tied = join_list(rules.competitor(s.of, c)[1] for c in after.pending())
        text = (_("{Purpose}: {rolled} (rolled by the app) — a tie: {tied} roll again.", Purpose=_cap(purpose),
                  rolled=rolled, tied=tied) if roll.virtual else
                _("{Purpose}: {rolled} (rolled) — a tie: {tied} roll again.", Purpose=_cap(purpose), rolled=rolled,
                  tied=tied))
        events.append(Event("rolled", text, data))
        state.step = after
        return
    order = after.order()
    names = join_list(rules.competitor(s.of, c)[1] for c in order)
    text = (_("{Purpose}: {rolled} (rolled by the app) — {names}.", Purpose=_cap(purpose), rolled=rolled, names=names)
            if roll.virtual else
            _("{Purpose}: {rolled} (rolled) — {names}.", Purpose=_cap(purpose), rolled=rolled, names=names))
    # Players are named by their index into the scenario's players, figures by their id.
    ranked: list[int] | list[str] = [int(c) for c in order] if s.of == "players" else list(order)
    events.append(Event("turn_order" if s.of == "players" else "rolled", text, {**data, "order": ranked}))
    if s.of == "players":
        rules.flow.order.players_ordered(rules, state, [int(c) for c in order], events)
    else:
        rules.figures_ordered(state, s, order, events)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class TurnPhase(Protocol):
    """A phase of a turn as the turn orders see it (:class:`engine.flow.machine.Phase` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def enter(self) -> Callable[[Any, GameState], Step]: ...


class TurnFlow(Protocol):
    """A rule set's turn structure as the turn orders see it (:class:`engine.flow.machine.Flow` is one)."""

    @property
    def phases(self) -> Sequence[TurnPhase]: ...

    @property
    def order(self) -> TurnOrder: ...


class TurnRules(Protocol):
    """What the turn orders ask of the rule set they serve (:class:`engine.flow.machine.FlowRuleSet` is one), so
    this module needs the flow only as this shape and the two import each other in no circle, types counted."""

    @property
    def scenario(self) -> Scenario: ...

    @property
    def flow(self) -> TurnFlow: ...

    def active_name(self, state: GameState) -> str: ...

    def begin_turn(self, state: GameState, events: list[Event]) -> None: ...

    def can_play(self, state: GameState, player: int) -> bool: ...

    def competitor(self, of: str, ident: str) -> tuple[str, str]: ...

    def figures_ordered(self, state: GameState, rolloff: RollOff, order: tuple[str, ...],
                        events: list[Event]) -> None: ...

    def skipped(self, state: GameState, player: int, events: list[Event]) -> None: ...

    def start_turn(self, state: GameState, events: list[Event]) -> None: ...


class TurnOrder(Protocol):
    """Who acts when: the game's first step, how a turn starts, how players are ordered, who plays next."""

    def first_step(self, rules: TurnRules, state: GameState) -> Step: ...

    def start_turn(self, rules: TurnRules, state: GameState, events: list[Event]) -> None: ...

    def players_ordered(self, rules: TurnRules, state: GameState, order: Sequence[int],
                        events: list[Event]) -> None: ...

    def next_turn(self, rules: TurnRules, state: GameState, events: list[Event]) -> None: ...


def _players_roll_off(rules: TurnRules, purpose: str) -> RollOff:
    return RollOff((tuple(str(i) for i in range(len(rules.scenario.players))),), purpose=purpose)


class PlayerTurns:
    """Players take turns one after another; each turn opens its first phase with "Round 3: Red's turn."."""

    def start_turn(self, rules: TurnRules, state: GameState, events: list[Event]) -> None:
        first = rules.flow.phases[0]
        state.phase = first.name
        rules.begin_turn(state, events)
        events.append(
            Event(
                "turn",
                _("Round {round}: {whose} turn.", round=state.round, whose=possessive(rules.active_name(state))),
                {"round": state.round, "player": state.turn_order[state.active]},
            )
        )
        state.step = first.enter(rules, state)

    def players_ordered(self, rules: TurnRules, state: GameState, order: Sequence[int],
                        events: list[Event]) -> None:
        """The players' order is settled: play starts with the first who can play."""
        state.turn_order = list(order)
        state.active = 0
        state.round = max(state.round, 1)
        n = len(state.turn_order)
        while state.active < n - 1 and not rules.can_play(state, state.turn_order[state.active]):
            rules.skipped(state, state.turn_order[state.active], events)
            state.active += 1
        rules.start_turn(state, events)


def _rotate(rules: TurnRules, state: GameState, events: list[Event]) -> None:
    """The next player who can play takes a turn; the round counts up when the order starts again."""
    n = len(state.turn_order)
    for _turn in range(n):
        state.active = (state.active + 1) % n
        if state.active == 0:
            state.round += 1
        if rules.can_play(state, state.turn_order[state.active]):
            break
        rules.skipped(state, state.turn_order[state.active], events)
    rules.start_turn(state, events)


@dataclass(frozen=True)
class FixedOrder(PlayerTurns):
    """One roll-off at the start; then the players take turns in that order, rounds counting up."""

    purpose: str = N_("turn order")

    def first_step(self, rules: TurnRules, state: GameState) -> Step:
        return _players_roll_off(rules, self.purpose)

    def next_turn(self, rules: TurnRules, state: GameState, events: list[Event]) -> None:
        _rotate(rules, state, events)


@dataclass(frozen=True)
class InitiativeEachTurn(PlayerTurns):
    """A roll-off before every round; the round is played in that order."""

    purpose: str = N_("initiative")

    def first_step(self, rules: TurnRules, state: GameState) -> Step:
        return _players_roll_off(rules, self.purpose)

    def next_turn(self, rules: TurnRules, state: GameState, events: list[Event]) -> None:
        n = len(state.turn_order)
        while state.active + 1 < n:
            state.active += 1
            if rules.can_play(state, state.turn_order[state.active]):
                rules.start_turn(state, events)
                return
            rules.skipped(state, state.turn_order[state.active], events)
        state.round += 1
        state.phase = "setup"
        state.step = _players_roll_off(rules, self.purpose)


@step("first_player")
@dataclass(frozen=True)
class FirstPlayer(Step):
    """The players have made their initiative check as their own game says, and say who acts first."""


def _initiative_term(rules: TurnRules) -> str:
    """What the rule set calls the check for who acts first, in its own words (its catalogue's)."""
    order = rules.flow.order
    term = order.term if isinstance(order, InitiativeEntered) else InitiativeEntered.term
    return declared_text(type(rules), term)


def first_player_prompt(rules: TurnRules, state: GameState, s: FirstPlayer) -> Prompt:
    term = _initiative_term(rules)
    options = tuple(Option(str(i), _("{player} won the {term}: acts first", player=p.name, term=term)) for i, p in
                    enumerate(rules.scenario.players))
    check = _("{term} check: roll as your game says; who acts first?", term=term)
    return Prompt(PromptKind.CHOOSE, rules.scenario.players[0].sides[0], check[:1].upper() + check[1:],
                  options=options, note=_("any player may enter it"))


def first_player_apply(rules: TurnRules, state: GameState, s: FirstPlayer, choice: Choose,
                       events: list[Event]) -> None:
    first = int(choice.option)
    events.append(Event("initiative", _("{player} won the {term}.", player=rules.scenario.players[first].name,
                                        term=_initiative_term(rules)), {"player": first}))
    state.turn_order = [first, *(i for i in range(len(rules.scenario.players)) if i != first)]
    state.active = 0
    state.round = max(state.round, 1)
    rules.start_turn(state, events)


@dataclass(frozen=True)
class InitiativeEntered(PlayerTurns):
    """The players roll the initiative once as their own game says and enter who won (a choice, no dice
    asked); that player acts first, the others follow in the scenario's order, round after round (Tenkey).
    ``term`` is what the rule set calls that check, marked with ``N_`` in its own module (its catalogue says it)."""

    term: str = N_("initiative")

    def first_step(self, rules: TurnRules, state: GameState) -> Step:
        return FirstPlayer()

    def next_turn(self, rules: TurnRules, state: GameState, events: list[Event]) -> None:
        _rotate(rules, state, events)


@dataclass(frozen=True)
class Rounds:
    """Rounds without players' turns: every figure of every side plays each phase, round after round, from the
    first phase (Laramie). The order within a phase is the rule set's (``order_by_value`` and roll-offs)."""

    def first_step(self, rules: TurnRules, state: GameState) -> Step:
        state.turn_order = list(range(len(rules.scenario.players)))
        state.round = 1
        state.phase = rules.flow.phases[0].name
        return rules.flow.phases[0].enter(rules, state)

    def start_turn(self, rules: TurnRules, state: GameState, events: list[Event]) -> None:
        first = rules.flow.phases[0]
        state.phase = first.name
        rules.begin_turn(state, events)
        events.append(Event("turn", _("Round {round}.", round=state.round), {"round": state.round}))
        state.step = first.enter(rules, state)

    def players_ordered(self, rules: TurnRules, state: GameState, order: Sequence[int],
                        events: list[Event]) -> None:
        """A players' roll-off only says whom the header names first; the round goes on as before."""
        state.turn_order = list(order)

    def next_turn(self, rules: TurnRules, state: GameState, events: list[Event]) -> None:
        state.round += 1
        rules.start_turn(state, events)
