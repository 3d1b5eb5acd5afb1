"""The schema of the game a tablet draws: the state, the prompt, the threatened hexes and the history.

``engine.snapshot.game_snapshot`` builds this payload; the snapshot reply carries it whole (``game``) and
every ``game.state`` update carries it without the history's old entries. Receivers check it field by
field with :func:`check_game` / :func:`check_update`. One entry per field: a new field of the core state
is one line in :data:`FIGURE` or :data:`STATE` (mark it ``optional`` so an older engine still passes).

A rule set keeps its own data in the state: :data:`RULE_SET_PART` names those fields, which are checked
only to be objects (``step`` also to name its ``kind``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.i18n import gettext_for
from engine.wire.fields import WireError, check_object, field_path
from engine.wire.schema import (
    AnyObject,
    AnyValue,
    Bool,
    HexPair,
    Int,
    ListOf,
    MapOf,
    Nullable,
    Num,
    Obj,
    Spec,
    Str,
)

_ = gettext_for(__name__)

PROMPT_KINDS: tuple[str, ...] = ("roll", "choose", "move", "remove", "game_over")  # engine.prompts.PromptKind
DECIDERS: tuple[str, ...] = ("players", "gm", "table")  # engine.prompts.Decider: who answers a prompt
DOOR_STATES: tuple[str, ...] = ("closed", "open", "locked")

HEX = HexPair()
MAYBE_HEX = Nullable(HexPair())
NAME = Str()
MAYBE_NAME = Nullable(Str())


class Door(Spec):
    """A door as ``[q1, r1, q2, r2, state]``: the two hexes it joins and whether it is open."""

    def check(self, value: Any, where: str) -> None:
        ListOf(AnyValue(), length=5).check(value, where)
        for i in range(4):
            Int(minimum=None).check(value[i], f"{where}[{i}]")
        Str(DOOR_STATES).check(value[4], f"{where}[4]")


FIGURE = Obj({
    "id": NAME,
    "side": NAME,
    "hex": MAYBE_HEX,
    "alive": Bool(),
    "on_table": Bool(),
    "facing": Int(minimum=None),
    "carrying": ListOf(NAME),
    "values": AnyObject(),  # the rule set's own per-figure values (hit points left, a unit state)
    "badges": ListOf(Str()),  # short texts the rule set shows on the figure (its state)
}, optional=frozenset({"values", "badges"}))

RULE_SET_PART: dict[str, Spec] = {
    "step": Obj({"kind": NAME}),  # the pending decision: its other fields are the rule set's
    "turn_sets": AnyObject(),  # per-turn figure sets ("acted", …), named by the rule set
}

class Mark(Spec):
    """A game master's terrain mark as ``[q, r, terrain]``."""

    def check(self, value: Any, where: str) -> None:
        ListOf(AnyValue(), length=3).check(value, where)
        for i in range(2):
            Int(minimum=None).check(value[i], f"{where}[{i}]")
        Str().check(value[2], f"{where}[2]")


STATE = Obj({
    "scenario_id": NAME,
    "ruleset": NAME,
    "figures": MapOf(FIGURE),
    "doors": ListOf(Door()),
    "tokens": MapOf(MAYBE_HEX),
    "round": Int(),
    "turn_order": ListOf(Int()),
    "active": Int(),
    "phase": NAME,
    "pending_removals": ListOf(NAME),
    "winner": MAYBE_NAME,
    "serial": Int(),
    "marks": ListOf(Mark()),  # terrain marked in play (engine.board.marks)
    "rulings": MapOf(Str()),  # a game master's rulings by key, read by the rule set
    **RULE_SET_PART,
}, optional=frozenset({"marks", "rulings"}))  # a peer of an earlier release sends none of these

MOVE = Obj({"hex": HEX, "label": NAME, "cost": Num(low=0.0), "path": ListOf(HEX)})

# What the board shows (engine.overlays.Overlay, as engine.snapshot.overlay_to_dict writes it): a query's answer,
# or what a prompt asks about (the line a game master rules on, with the cells it only touches).
OVERLAY = Obj({
    "query": Str(),
    "cells": ListOf(Obj({"hex": HEX, "style": Str(), "label": Str(), "level": Num(low=0.0, high=1.0)})),
    "lines": ListOf(Obj({"path": ListOf(HEX), "verdict": Str(), "text": Str(), "target": MAYBE_NAME,
                         "blocker": Nullable(AnyObject()), "touched": ListOf(HEX)},
                        optional=frozenset({"touched"}))),  # an earlier release sends no touched cells
    "texts": ListOf(Str()),
})

PROMPT = Obj({
    "kind": Str(PROMPT_KINDS),
    "side": MAYBE_NAME,
    "text": Str(),
    "figure": MAYBE_NAME,
    "note": Str(),
    "dice": ListOf(Obj({"roller": MAYBE_NAME, "sides": Int(minimum=2), "purpose": Str(), "figure": MAYBE_NAME})),
    "outcomes": ListOf(ListOf(Obj({"low": Int(minimum=None), "high": Int(minimum=None), "text": Str()}))),
    "chances": ListOf(Obj({"text": Str(), "probability": Num(low=0.0, high=1.0)})),
    "options": ListOf(Obj({"id": NAME, "label": Str(), "hex": MAYBE_HEX, "figure": MAYBE_NAME})),
    "moves": ListOf(MOVE),
    "decider": Str(DECIDERS),  # "gm": only the game master's tablet answers (absent: "players")
    "decider_text": Str(),  # who decides, in words (empty when the players answer)
    "overlay": Nullable(OVERLAY),  # what the board shows while the prompt waits (null: nothing of its own)
}, optional=frozenset({"decider", "decider_text", "overlay"}))  # a peer of an earlier release sends none of these

THREATENED = MapOf(ListOf(HEX))  # side id -> the hexes its figures threaten

HISTORY_ENTRY = Obj({
    "n": Int(minimum=1),
    "action": Obj({"kind": NAME}),
    "text": Str(),  # the action's command form ("face jeff 2"), for tools and game records
    "said": Str(),  # the action as a sentence in the table's language ("Jeff turns to face C4"), for people
    "events": ListOf(Obj({"kind": NAME, "text": Str(), "data": AnyValue()}, optional=frozenset({"data"}))),
}, optional=frozenset({"said"}))  # a peer of an earlier release sends no sentence

# What every game.state carries beside the history (the snapshot holds the same plus the whole history).
CURRENT: dict[str, Spec] = {"state": STATE, "prompt": PROMPT, "threatened": THREATENED}


def check_history(entries: Any, where: str, first: int) -> Sequence[Mapping[str, Any]]:
    """History entries numbered ``first``, ``first + 1``, … in order."""
    ListOf(HISTORY_ENTRY).check(entries, where)
    for i, entry in enumerate(entries):
        if entry["n"] != first + i:
            path = f"{where}[{i}].n"
            raise WireError(_("{where}: expected {n} (entries are numbered in order), got {got}", where=path,
                              n=first + i, got=entry["n"]))
    return entries  # type: ignore[no-any-return]


def check_current(obj: Mapping[str, Any], where: str) -> None:
    """The state, prompt and threatened hexes of a game.state update or a snapshot."""
    for key, spec in CURRENT.items():
        if key not in obj:
            raise WireError(_("{where}: missing (required field)", where=field_path(where, key)))
        spec.check(obj[key], f"{where}.{key}")


def check_game(value: Any, where: str) -> dict[str, Any]:
    """A whole game as the snapshot reply carries it: the current part and every history entry from 1."""
    obj = check_object(value, where)
    check_current(obj, where)
    if "history" not in obj:
        raise WireError(_("{where}: missing (required field)", where=field_path(where, "history")))
    check_history(obj["history"], f"{where}.history", 1)
    return dict(obj)


def merge_history(held: Sequence[Mapping[str, Any]], history_from: int,
                  entries: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]] | None:
    """``held`` with the entries from ``history_from`` on replaced by ``entries`` (an undo sends none);
    None when ``held`` is too short to build on (entries are missing: take a snapshot)."""
    if len(held) < history_from - 1:
        return None
    return [*held[:history_from - 1], *entries]
