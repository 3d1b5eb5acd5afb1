"""The shared turn flow: phases and stages declared as data, one dispatcher for prompts and actions.

A rule set built on :class:`FlowRuleSet` declares a :class:`Flow` — its turn order, the phases of a
player's turn in order, and one :class:`Stage` per step type (how to prompt it, how to apply the
answer, and optionally how it settles alone when no decision is needed) — and supplies the hooks
that are its own rules. The dispatcher does the rest, for every rule set alike:

1. figures killed but still on the table are taken off first (one removal prompt each);
2. the answer is checked against the prompt once (dice faces, offered options, legal hexes);
3. the pending step's stage applies it;
4. the victory hook is asked; then steps that need no decision settle, phase after phase,
   turn after turn — but never past a removal still to be confirmed.

A ``face`` action stands apart: rule sets that declare ``uses_facing`` take it at any time, without
answering the prompt (:mod:`engine.flow.facing`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from engine.actions import Action, Choose, Face, Remove, Roll
from engine.board.base import Cell
from engine.errors import IllegalActionError
from engine.events import Event
from engine.flow.answers import check_answer
from engine.flow.facing import apply_face
from engine.flow.steps import GameOver, Step
from engine.flow.turns import (
    FirstPlayer,
    FixedOrder,
    RollOff,
    TurnOrder,
    first_player_apply,
    first_player_prompt,
    roll_off_apply,
    roll_off_prompt,
)
from engine.i18n import N_, gettext_for
from engine.prompts import Prompt, PromptKind
from engine.rules.base import RuleSet
from engine.state import FigureState, GameState
from engine.texts import agreeing

if TYPE_CHECKING:
    from engine.scenario import FigureSpec, Scenario

_ = gettext_for(__name__)
# Sentences in the two forms that agree with a name (Goblins roll / Red rolls), translated alike.
SKIPPED = (N_("{name} has no figures left: its turn is skipped."),
           N_("{name} have no figures left: their turn is skipped."))
WINS_WITH_TEXT = (N_("{side} wins: {text}"), N_("{side} win: {text}"))
WINS = (N_("{side} wins."), N_("{side} win."))

SETTLE_LIMIT = 1000  # automatic steps in a row before the flow is declared stuck (a rule-set bug)

R = TypeVar("R", bound="FlowRuleSet")  # the rule set a stage's callables take
S = TypeVar("S", bound=Step)  # the step type a stage handles
A = TypeVar("A", bound=Action)  # the answer its apply takes (a Roll, a Choose, a Move, …)


@dataclass(frozen=True)
class Stage(Generic[R, S, A]):
    """What the flow does with one step type: ``settle`` returns True when it moved the game on by itself.

    Typed: mypy infers the rule set, the step and the answer from the callables and checks that they agree
    with each other and with ``step`` (``Stage(RollDie, prompt_roll, apply_roll)`` is a ``Stage[Race,
    RollDie, Roll]``)."""

    step: type[S]
    prompt: Callable[[R, GameState, S], Prompt]
    apply: Callable[[R, GameState, S, A, list[Event]], None]
    settle: Callable[[R, GameState, S, list[Event]], bool] | None = None


AnyStage = Stage[Any, Any, Any]  # a stage of any rule set, as a flow lists them


@dataclass(frozen=True)
class Phase:
    """One phase of a player's turn and the step it opens with."""

    name: str
    enter: Callable[[Any, GameState], Step]


ROLL_OFF: Stage[FlowRuleSet, RollOff, Roll] = Stage(RollOff, roll_off_prompt, roll_off_apply)
FIRST_PLAYER: Stage[FlowRuleSet, FirstPlayer, Choose] = Stage(FirstPlayer, first_player_prompt, first_player_apply)
CORE_STAGES: tuple[AnyStage, ...] = (ROLL_OFF, FIRST_PLAYER)  # the turn orders' own steps, for every rule set


@dataclass(frozen=True)
class Flow:
    """A rule set's turn structure: who goes when, the phases of a turn, the stage of each step type."""

    phases: tuple[Phase, ...]
    stages: tuple[AnyStage, ...]
    order: TurnOrder = field(default_factory=FixedOrder)

    def stage(self, s: Step) -> AnyStage:
        for stage in (*CORE_STAGES, *self.stages):
            if isinstance(s, stage.step):
                return stage
        raise LookupError(f"no stage handles the step {s.kind!r}: declare one in the rule set's flow")


class FlowRuleSet(RuleSet):
    """A rule set whose turn flow is run by the shared dispatcher."""

    flow: ClassVar[Flow]

    def __init__(self, scenario: Scenario) -> None:
        super().__init__(scenario)
        self._figure_names = {f.id: f.name for f in scenario.figures}

    # -- the game before its first decision ---------------------------------------------------------
    def new_state(self) -> GameState:
        """Every figure on its start cell (:meth:`new_figure`), what else the game starts with (:meth:`set_up`),
        and the first step of the turn order (the roll-off for it, say)."""
        figures = {f.id: self.new_figure(f) for f in self.scenario.figures}
        state = GameState(self.scenario.id, self.name, figures, doors={}, tokens={})
        self.set_up(state)
        state.step = self.flow.order.first_step(self, state)
        return state

    def new_figure(self, spec: FigureSpec) -> FigureState:
        """A figure as the game starts: on its start cell (a rule set adds its own values, its facing, …)."""
        return FigureState(spec.id, spec.side, spec.start)

    def set_up(self, state: GameState) -> None:
        """What the game starts with besides the figures (doors, tokens, per-turn sets), before the first step."""

    # -- hooks a rule set supplies ---------------------------------------------------------------
    def name_of(self, ident: str) -> str:
        """A figure's name (or a side's) for prompts and the log."""
        name = self._figure_names.get(ident)
        return name if name is not None else self.side_name(ident)

    def side_name(self, side: str) -> str:
        return next((s.name for s in self.scenario.sides if s.id == side), side)

    def label(self, h: Cell) -> str:
        return self.scenario.board.label(h)

    def begin_turn(self, state: GameState, events: list[Event]) -> None:
        """Turn bookkeeping before the first phase (per-turn sets and the like)."""

    def end_turn(self, state: GameState, events: list[Event]) -> None:
        """Anything that happens as a player's turn ends (doors swinging shut, …)."""

    def victory(self, state: GameState) -> tuple[str, str] | None:
        """(winning side, what they achieved) once a victory condition holds."""
        return None

    # -- players and sides -------------------------------------------------------------------------
    def player_sides(self, state: GameState) -> tuple[str, ...]:
        if not state.turn_order:
            return ()
        return self.scenario.players[state.turn_order[state.active]].sides

    def active_name(self, state: GameState) -> str:
        return self.scenario.players[state.turn_order[state.active]].name

    def competitor(self, of: str, ident: str) -> tuple[str, str]:
        """(side that rolls, name) of a roll-off competitor: a player index or a figure id."""
        if of == "players":
            player = self.scenario.players[int(ident)]
            return player.sides[0], player.name
        return self.scenario.figure(ident).side, self.name_of(ident)

    def can_play(self, state: GameState, player: int) -> bool:
        sides = self.scenario.players[player].sides
        return any(f.side in sides for f in state.alive())

    def skipped(self, state: GameState, player: int, events: list[Event]) -> None:
        name = self.scenario.players[player].name
        events.append(
            Event(
                "turn_skipped",
                _(agreeing(name, *SKIPPED), name=name),
                {"player": player},
            )
        )

    # -- turns and phases (the flow's turn order decides) ----------------------------------------------------
    def figures_ordered(self, state: GameState, rolloff: RollOff, order: tuple[str, ...], events: list[Event]) -> None:
        """A roll-off among figures is settled (``of="figures"``): what the order is for is the rule set's."""
        raise NotImplementedError(f"{type(self).__name__} rolls off figures but does not say what for "
                                  "(define figures_ordered)")

    def start_turn(self, state: GameState, events: list[Event]) -> None:
        self.flow.order.start_turn(self, state, events)

    def end_phase(self, state: GameState, events: list[Event]) -> None:
        """Go on to the next phase of the turn, or end the turn after the last one."""
        names = [p.name for p in self.flow.phases]
        i = names.index(state.phase) if state.phase in names else len(names) - 1
        if i + 1 < len(names):
            phase = self.flow.phases[i + 1]
            state.phase = phase.name
            state.step = phase.enter(self, state)
        else:
            self.next_turn(state, events)

    def next_turn(self, state: GameState, events: list[Event]) -> None:
        self.end_turn(state, events)
        self.check_victory(state, events)
        if state.winner is None:  # a turn that wins the game starts no other
            self.flow.order.next_turn(self, state, events)

    # -- the dispatcher -------------------------------------------------------------------------------
    def prompt(self, state: GameState) -> Prompt:
        if state.pending_removals:
            fid = state.pending_removals[0]
            fig = state.figures[fid]
            text = (_("Take {name} off the table from {cell}.", name=self.name_of(fid), cell=self.label(fig.hex))
                    if fig.hex is not None else _("Take {name} off the table.", name=self.name_of(fid)))
            return Prompt(PromptKind.REMOVE, fig.side, text, figure=fid)
        if isinstance(state.step, GameOver):
            return Prompt(PromptKind.GAME_OVER, state.winner, state.step.text)
        return self.flow.stage(state.step).prompt(self, state, state.step)

    def apply(self, state: GameState, action: Action) -> list[Event]:
        if isinstance(action, Face):
            if isinstance(state.step, GameOver):
                raise IllegalActionError(_("the game is over ({result}); start a new game or undo",
                                           result=state.step.text))
            turned = apply_face(self, state, action, self.name_of)
            state.serial += 1
            return turned
        check_answer(self.prompt(state), action, self.name_of, self.label, lambda fid, to: self.why_not(state, fid, to),
                     self.scenario.board.kind, lambda option: self.why_refused(state, option))
        events: list[Event] = []
        if state.pending_removals:
            assert isinstance(action, Remove)
            self.confirm_removal(state, action.figure, events)
        else:
            self.flow.stage(state.step).apply(self, state, state.step, action, events)
        state.serial += 1
        self.check_victory(state, events)
        self.settle(state, events)
        return events

    def confirm_removal(self, state: GameState, fid: str, events: list[Event]) -> None:
        state.pending_removals.remove(fid)
        state.figures[fid].on_table = False
        events.append(Event("removed", _("{name} is off the table.", name=self.name_of(fid)), {"figure": fid}))

    def check_victory(self, state: GameState, events: list[Event]) -> None:
        if state.winner is not None:
            return
        won = self.victory(state)
        if won is not None:
            side, text = won
            state.winner = side
            name = self.side_name(side)
            said = _(agreeing(name, *WINS_WITH_TEXT), side=name, text=text)
            events.append(Event("victory", said, {"side": side}))

    def settle(self, state: GameState, events: list[Event]) -> None:
        """Move on through every step that needs no decision; stop at removals still to confirm."""
        for _step in range(SETTLE_LIMIT):
            if state.winner is not None:
                if not isinstance(state.step, GameOver):
                    name = self.side_name(state.winner)
                    state.step = GameOver(_(agreeing(name, *WINS), side=name))
                return
            if state.pending_removals:
                return
            stage = self.flow.stage(state.step)
            if stage.settle is None or not stage.settle(self, state, state.step, events):
                return
        raise RuntimeError("the turn flow did not settle: a rule set bug")
