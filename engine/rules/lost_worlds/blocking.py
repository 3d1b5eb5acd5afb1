"""Blocking: the movement chart's block action, and the block of a character entering an enemy's battle range.

- The chart's block action (*2) needs the enemy **adjacent** (隣接), not in battle range: an enemy out of
  battle range only because of the height between them can still be blocked. Never while down. The
  blocked enemy may do nothing else this turn but regain its balance.
- Every space a mover enters in an enemy's battle range, except that enemy's back space, lets the enemy
  block it there (its player is asked; the move ends). A down or already blocked enemy blocks nobody.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose
from engine.events import Event
from engine.flow.words import possessive
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.prompts import Option, Prompt, PromptKind
from engine.state import FigureState, GameState

from . import chart
from .condition import DOWN, HELD, MP, conscious
from .spaces import back_space
from .steps import Act, AskBlock, NameBack

if TYPE_CHECKING:
    from .rules import LostWorlds

_ = gettext_for(__name__)


def may_block(fig: FigureState) -> bool:
    """A conscious enemy that is neither down nor held may block a character entering its battle range."""
    return conscious(fig) and not fig.flag(DOWN) and not fig.flag(HELD)


def block_targets(r: LostWorlds, state: GameState, fig: FigureState) -> list[FigureState]:
    """The enemies the character's block action may hold: adjacent, not blocked already (by id)."""
    return sorted((e for e in r.spaces.enemies_next_to(state, fig) if not e.flag(HELD)), key=lambda e: e.id)


def block_option(r: LostWorlds, enemy: FigureState) -> Option:
    return Option(f"block-{enemy.id}", _("block {name} ({cost} MP, starred: it can only regain balance this turn)",
                                         name=r.name_of(enemy.id), cost=chart.cost("block")), enemy.hex, enemy.id)


def blockers_on_entry(r: LostWorlds, state: GameState, mover: FigureState, entered: Hex) -> tuple[str, ...]:
    """The enemies that may block a mover that has just entered ``entered``: it is in their battle range and not
    their back space, and they may block."""
    return tuple(e.id for e in sorted(r.spaces.enemies_in_range(state, mover), key=lambda e: e.id)
                 if may_block(e) and back_space(e) != entered)


def prompt_block(r: LostWorlds, state: GameState, step: AskBlock) -> Prompt:
    blocker = state.figures[step.blockers[0]]
    mover = state.figures[step.figure]
    said = dict(mover=r.name_of(mover.id), blocker=r.name_of(blocker.id), space=r.where(state, mover.id),
                of_mover=possessive(r.name_of(mover.id)), of_blocker=possessive(r.name_of(blocker.id)))
    return Prompt(PromptKind.CHOOSE, blocker.side,
                  _("{mover} enters {of_blocker} battle range at {space} (not through its back space): does {blocker} "
                    "block it there?", **said),
                  options=(Option("block", _("{blocker} blocks: {of_mover} move ends", **said), mover.hex, mover.id),
                           Option("pass", _("let it go on"))))


def apply_block(r: LostWorlds, state: GameState, step: AskBlock, choice: Choose, events: list[Event]) -> None:
    mover = state.figures[step.figure]
    if choice.option == "block":
        mover.values[MP] = 0
        events.append(Event("blocked", _("{blocker} blocks {mover}: its move ends.",
                                         blocker=r.name_of(step.blockers[0]), mover=r.name_of(mover.id)),
                            {"figure": mover.id, "by": step.blockers[0]}))
        state.step = NameBack(mover.id) if r.spaces.can_end(state, mover) else Act(mover.id)
        return
    rest = step.blockers[1:]
    state.step = AskBlock(step.figure, rest) if rest else Act(step.figure)
