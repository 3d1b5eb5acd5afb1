"""Tokens and victory in Fantasy Battle: picking up, dropping on death, and the scenario's victory conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import Event
from engine.hexes import Hex
from engine.i18n import N_, gettext_for
from engine.rules.fantasy_battle.scenario_fields import DESTROY, bring_to, bring_token, can_carry, kill_figures
from engine.state import FigureState, GameState

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle

_ = gettext_for(__name__)

# The tokens the maps draw, as texts for people name them.
TOKEN_WORDS = {"treasure": N_("treasure"), "prisoner": N_("prisoner")}


def token_word(token: str) -> str:
    """A token's name in the table's language ("treasure" / 「宝物」)."""
    word = TOKEN_WORDS.get(token)
    return _(word) if word else token


def pick_up(r: FantasyBattle, state: GameState, fig: FigureState, events: list[Event]) -> None:
    """A figure that may carry takes the tokens its side must bring out from the hex it reached."""
    if not can_carry(r.scenario.figure(fig.id)):
        return
    for token, where in list(state.tokens.items()):
        if where == fig.hex and (fig.side, token) in r.bring_tokens:
            state.tokens[token] = None
            fig.carrying.append(token)
            events.append(
                Event("picked_up", _("{name} takes the {token}.", name=r.fname(fig.id), token=token_word(token)),
                      {"figure": fig.id, "token": token})
            )


def kill(r: FantasyBattle, state: GameState, fid: str, text: str, events: list[Event]) -> None:
    """A figure dies: what it carried falls where it stood, and its removal is awaited."""
    fig = state.figures[fid]
    state.kill(fid)
    events.append(Event("killed", text, {"figure": fid, "hex": None if fig.hex is None else [fig.hex.q, fig.hex.r]}))
    for token in fig.carrying:
        state.tokens[token] = fig.hex
        said = (_("The {token} falls to the ground at {cell}.", token=token_word(token), cell=r.label(fig.hex))
                if fig.hex else _("The {token} falls to the ground.", token=token_word(token)))
        events.append(Event("dropped", said, {"token": token}))
    fig.carrying = []


def victory(r: FantasyBattle, state: GameState) -> tuple[str, str] | None:
    """The first of the scenario's conditions that holds: destroy the enemy, kill named figures, bring a token out."""
    for v in r.scenario.victory:
        won = False
        if v.type == "destroy":
            won = DESTROY.won(state, v.side)
        elif v.type == "kill":
            won = all(not state.figures[f].alive for f in kill_figures(v))
        elif v.type == "bring":
            carried, out = bring_token(v), bring_to(v)
            won = any(f.side == v.side and carried in f.carrying and f.hex in out for f in state.alive())
        if won:
            return v.side, v.text
    return None


def goals(r: FantasyBattle, state: GameState, figure: str) -> list[Hex]:
    """Where a figure should head: out with the token it carries, to a token it may carry, else the enemies."""
    fig = state.figures[figure]
    for v in r.scenario.victory:
        if v.type != "bring" or v.side != fig.side:
            continue
        if bring_token(v) in fig.carrying:
            return list(bring_to(v))
        where = state.tokens.get(bring_token(v))
        if where is not None and can_carry(r.scenario.figure(fig.id)):
            return [where]
    return [f.hex for f in state.alive() if f.side != fig.side and f.hex is not None]
