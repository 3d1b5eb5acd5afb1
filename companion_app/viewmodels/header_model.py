"""The header line (round, active player, phase) and the connection badge in the corner."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion_app.viewmodels.board_model import BoardView
from engine.flow.words import possessive, verb

# The shared turn flow's own phases; a rule set names its phases in the scenario message (``phases``).
PHASE_NAMES: dict[str, str] = {
    "setup": "Turn order",
    "over": "Game over",
}

CONNECTION_TEXT: dict[str, str] = {
    "connecting": "Connecting…",
    "syncing": "Syncing…",
    "live": "Live",
    "stale": "Stale: no word from the engine",
    "stopped": "Offline",
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
            return f"Game over: {verb(self.winner, 'wins', 'win')}"
        who = possessive(self.active_player)
        if self.round <= 0:
            if self.rolling:
                return f"{self.phase} — roll for who goes first"
            # A rule set without rounds or a roll for the order: the side the prompt addresses, never a roll.
            return f"{who} turn" if self.active_player else self.phase
        return f"Round {self.round} · {who} turn · {self.phase}"


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
    names = {**PHASE_NAMES, **((scenario or {}).get("phases") or {})}
    winner = state.get("winner")
    winner_name = board.side_name(winner) if board and winner else winner
    return HeaderView(int(state.get("round", 0)), name, side, str(names.get(phase, phase.title())), winner_name,
                      rolling)


def connection_text(state: str, detail: str = "") -> str:
    base = CONNECTION_TEXT.get(state, state)
    return f"{base} ({detail})" if detail and state != "live" else base
