"""The header line (round, active player, phase) and the connection badge in the corner."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion_app.viewmodels.board_model import BoardView
from companion_app.viewmodels.words import possessive
from engine.flow.words import is_plural
from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

# The shared turn flow's own phases; a rule set names its phases in the scenario message (``phases``).
PHASE_NAMES: dict[str, str] = {
    "setup": N_("Turn order"),
    "over": N_("Game over"),
}

CONNECTION_TEXT: dict[str, str] = {
    "connecting": N_("Connecting…"),
    "syncing": N_("Syncing…"),
    "live": N_("Live"),
    "stale": N_("Stale: no word from the engine"),
    "stopped": N_("Offline"),
}


@dataclass(frozen=True)
class HeaderView:
    round: int
    active_player: str
    active_side: str | None
    phase: str
    winner: str | None
    rolling: bool = True  # before round 1: the prompt is the roll for who goes first

    @property
    def text(self) -> str:
        if self.winner:
            if is_plural(self.winner):
                return _("Game over: {side} win", side=self.winner)
            return _("Game over: {side} wins", side=self.winner)
        who = possessive(self.active_player)
        if self.round <= 0:
            if self.rolling:
                return _("{phase} — roll for who goes first", phase=self.phase)
            # A rule set without rounds or a roll for the order: the side the prompt addresses, never a roll.
            return _("{possessive} turn", possessive=who) if self.active_player else self.phase
        return _("Round {round} · {possessive} turn · {phase}", round=self.round, possessive=who, phase=self.phase)


def header_view(
    scenario: Mapping[str, Any] | None, snapshot: Mapping[str, Any] | None, board: BoardView | None
) -> HeaderView:
    state = (snapshot or {}).get("state") or {}
    players = (scenario or {}).get("players") or []
    order = state.get("turn_order") or []
    active = int(state.get("active", 0))
    name, side = "", None
    if order and 0 <= active < len(order) and 0 <= order[active] < len(players):
        player = players[order[active]]
        name = str(player.get("name", ""))
        side = (player.get("sides") or [None])[0]
    prompt = (snapshot or {}).get("prompt") or {}
    rolling = not prompt or prompt.get("kind") == "roll"
    if not order and not rolling and prompt.get("side"):
        side = str(prompt["side"])
        name = board.side_name(side) if board else side
    phase = str(state.get("phase", "setup"))
    names = {**{k: _(v) for k, v in PHASE_NAMES.items()}, **((scenario or {}).get("phases") or {})}
    winner = state.get("winner")
    winner_name = board.side_name(winner) if board and winner else winner
    return HeaderView(int(state.get("round", 0)), name, side, str(names.get(phase, phase.title())), winner_name,
                      rolling)


def connection_text(state: str, detail: str = "") -> str:
    base = _(CONNECTION_TEXT[state]) if state in CONNECTION_TEXT else state
    return _("{state} ({detail})", state=base, detail=detail) if detail and state != "live" else base
