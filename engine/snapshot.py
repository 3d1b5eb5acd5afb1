"""Plain JSON-ready dicts of the engine's objects, for the wire and for the tablets' view models.

The tablets hold no rules: they draw what these dicts say (the map, the figures, the prompt with
its options and legal hexes, the rule set's glossary and query kinds, and the overlays its queries
answer).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from engine.actions import action_to_dict, action_to_text
from engine.board.base import Cell
from engine.board.kinds import cell_noun
from engine.events import Event
from engine.game import Game, Played
from engine.hexes import Edge
from engine.i18n import current_language
from engine.overlays import Overlay
from engine.pathfinding import Reach
from engine.prompts import Prompt, decider_text
from engine.rules import find_ruleset
from engine.rules.base import RuleSet, TargetInfo
from engine.rules.content import QueryInput
from engine.rules.gm import calculator_to_dict, ruling_kind_to_dict
from engine.scenario import Scenario
from engine.texts import declared_text, english_cell_word, terrain_word


def hex_list(h: Cell | None) -> list[int] | None:
    return None if h is None else [h.q, h.r]


def _plain(value: Any) -> Any:
    """A rule set's field value as JSON: cells as [q, r], tuples as lists."""
    if isinstance(value, Cell):
        return [value.q, value.r]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def board_to_dict(scenario: Scenario) -> dict[str, Any]:
    """The board as the tablets draw it (``kind`` says which: ``hex`` or ``zones``) with its anchor tags.

    Its terrain and edge kinds carry their ``help`` and a ``label`` (the kind's name for people) in the
    table's language, looked up in the rule set's catalogue.
    """
    rules = find_ruleset(scenario.ruleset)
    board = scenario.board.to_dict()
    for key in ("terrain_kinds", "edge_kinds"):
        board[key] = [{**k, "label": declared_text(rules, terrain_word(str(k["name"]))),
                       "help": declared_text(rules, k["help"])} for k in board.get(key, [])]
    kind = scenario.board.kind
    words = {"one": cell_noun(kind, 1), "many": cell_noun(kind, 2), "english": [english_cell_word(kind, 1),
                                                                                 english_cell_word(kind, 2)]}
    return {**board, "anchors": {str(tag): [h.q, h.r] for tag, h in sorted(scenario.anchors.items())},
            "cell_words": words}


def content_to_dict(rules: type[RuleSet]) -> dict[str, Any]:
    """What the rule set shows besides its prompts: its title, glossary, query kinds and phase names."""
    def said(text: str) -> str:
        return declared_text(rules, text)

    return {
        "ruleset_title": said(rules.title),
        "glossary": [{"term": t.term, "text": t.text, "press": list(t.press)} for t in rules.glossary()],
        "queries": [{"name": q.name, "label": said(q.label), "about": q.about, "help": said(q.help),
                     "takes": list(q.takes), "shown": q.shown}
                    for q in rules.queries],
        "phases": {k: said(v) for k, v in rules.phase_names.items()},
        "rulings": [{**r, "help": said(r["help"])}  # what the game master may rule
                    for r in map(ruling_kind_to_dict, rules.ruling_kinds)],
        "terrain_marks": rules.terrain_marks,  # whether the game master may mark terrain in play
        "calculators": [{**c, "label": said(c["label"]), "help": said(c["help"]),
                         "fields": [{**f, "help": said(f["help"])} for f in c["fields"]]}
                        for c in map(calculator_to_dict, rules.calculators)],
    }


def rule_words(scenario: Scenario, rules: type[RuleSet]) -> dict[str, str]:
    """The rule set's words the scenario's figures and map use as ids (kinds, abilities, weapons, tokens), each as
    the table's language names it (``RuleSet.word``); a word that reads the same is left out."""
    found: set[str] = set()
    for f in scenario.figures:
        for value in f.fields.values():
            items = value if isinstance(value, (list, tuple)) else (value,)
            found.update(str(_plain(v)) for v in items if isinstance(_plain(v), str))
    found.update(str(token) for tile in scenario.board.to_dict().get("tiles", []) for token in tile.get("tokens", ()))
    return {w: said for w in sorted(found) if w and (said := rules.word(w)) != w}


def scenario_to_dict(scenario: Scenario, points: dict[str, int] | None = None) -> dict[str, Any]:
    """The scenario as the tablets show it; ``points`` empty when the rule set counts none (no points line)."""
    rules = find_ruleset(scenario.ruleset)
    return {
        "id": scenario.id,
        "language": current_language(),  # the table's language: the texts below are in it, tablets follow it
        "name": scenario.name,
        "description": scenario.description,
        "ruleset": scenario.ruleset,
        "uses_facing": rules.uses_facing,  # the tablets draw facings only where the rules have them
        "one_figure_per_cell": rules.one_figure_per_cell,
        "options": dict(scenario.options),
        "sides": [{"id": s.id, "name": s.name, "colour": s.colour} for s in scenario.sides],
        "players": [{"name": p.name, "sides": list(p.sides)} for p in scenario.players],
        "figures": [
            {
                **{key: _plain(value) for key, value in f.fields.items()},  # the rule set's own (kind, abilities…)
                "id": f.id,
                "name": f.name,
                "marker": f.marker_id,
                "side": f.side,
                "start": [f.start.q, f.start.r],
                "height_mm": f.height_mm,
            }
            for f in scenario.figures
        ],
        "words": rule_words(scenario, rules),
        "victory": [{"side": v.side, "type": v.type, "text": v.text} for v in scenario.victory],
        "points": dict(points or {}),
        "board": board_to_dict(scenario),
        **content_to_dict(rules),
    }


def reach_to_list(moves: Mapping[Cell, Reach], scenario: Scenario) -> list[dict[str, Any]]:
    return [
        {"hex": [h.q, h.r], "label": scenario.label(h), "cost": r.cost, "path": [[p.q, p.r] for p in r.path]}
        for h, r in sorted(moves.items(), key=lambda item: (item[1].cost, item[0]))
    ]


def prompt_to_dict(prompt: Prompt, scenario: Scenario, gm_at_table: bool = False) -> dict[str, Any]:
    """The prompt as the tablets read it; ``gm_at_table``: the table has a game master, who alone answers the
    prompts the rules leave to the GM (``decider``)."""
    decider = prompt.decider(gm_at_table)
    return {
        "kind": prompt.kind.value,
        "side": prompt.side,
        "text": prompt.text,
        "figure": prompt.figure,
        "note": prompt.note,
        "dice": [
            {"roller": d.roller, "sides": d.sides, "purpose": d.purpose, "figure": d.figure} for d in prompt.dice
        ],
        "outcomes": [[{"low": o.low, "high": o.high, "text": o.text} for o in per_die] for per_die in prompt.outcomes],
        "chances": [{"text": c.text, "probability": c.probability} for c in prompt.chances],
        "options": [
            {"id": o.id, "label": o.label, "hex": hex_list(o.hex), "figure": o.figure} for o in prompt.options
        ],
        "moves": reach_to_list(prompt.moves, scenario),
        "decider": decider.value,
        "decider_text": decider_text(decider),
        "overlay": None if prompt.overlay is None else overlay_to_dict(prompt.overlay),
    }


def _blocker(blocker: Cell | Edge | None) -> dict[str, Any] | None:
    if blocker is None:
        return None
    if isinstance(blocker, Edge):
        return {"edge": [[blocker.a.q, blocker.a.r], [blocker.b.q, blocker.b.r]]}
    return {"hex": [blocker.q, blocker.r]}


def targets_to_list(targets: list[TargetInfo]) -> list[dict[str, Any]]:
    return [
        {
            "target": t.target,
            "action": t.action,
            "range": t.range,
            "sight": t.sight.value,
            "allowed": t.allowed,
            "reason": t.reason,
            "blocker": _blocker(t.blocker),
            "path": [[h.q, h.r] for h in t.path],
        }
        for t in targets
    ]


def overlay_to_dict(overlay: Overlay) -> dict[str, Any]:
    """A query's answer as the tablets draw it (:mod:`engine.overlays`)."""
    return {
        "query": overlay.query,
        "cells": [{"hex": [c.cell.q, c.cell.r], "style": c.style, "label": c.label, "level": round(c.level, 3)}
                  for c in overlay.cells],
        "lines": [{"path": [[h.q, h.r] for h in line.path], "verdict": line.verdict, "text": line.text,
                   "target": line.target, "blocker": _blocker(line.blocker),
                   "touched": [[h.q, h.r] for h in line.touched]} for line in overlay.lines],
        "texts": list(overlay.texts),
    }


def query_to_dict(game: Game, what: str, subject: str, given: QueryInput | None = None) -> dict[str, Any]:
    """A ``query`` reply's fields: the overlay, and for the queries every rule set answers (reachable, targets,
    threatened) their plain lists too (``moves``, ``targets``, ``hexes``) for clients that read them."""
    out: dict[str, Any] = {}
    if what == "reachable":
        out["moves"] = reach_to_list(game.reachable(subject), game.scenario)
    elif what == "targets":
        out["targets"] = targets_to_list(game.targets(subject))
    elif what == "threatened":
        out["hexes"] = [[h.q, h.r] for h in sorted(game.threatened(subject))]
    overlay = (game.rules.query(game.state, what, subject) if given is None
               else game.rules.query_with(game.state, what, subject, given))
    out["overlay"] = overlay_to_dict(overlay)
    return out


def events_to_list(events: tuple[Event, ...] | list[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


def history_to_list(game: Game, start: int = 0) -> list[dict[str, Any]]:
    """The game's history entries from index ``start`` on (entry ``n`` is ``start + 1`` for the first)."""
    board = game.scenario.board
    return [
        {
            "n": i + 1,
            "action": action_to_dict(p.action),
            "text": action_to_text(p.action, board),
            "said": game.sentence(i + 1),
            "events": events_to_list(p.events),
        }
        for i, p in enumerate(game.history[start:], start)
    ]


def state_to_dict(game: Game) -> dict[str, Any]:
    """The state as the tablets draw it: a figure the rule set gives badges also carries them (``badges``)."""
    state = game.state.to_dict()
    for fid, fig in state["figures"].items():
        badges = game.rules.badges(game.state, fid)
        if badges:
            fig["badges"] = list(badges)
    return state


def game_current(game: Game, gm_at_table: bool = False) -> dict[str, Any]:
    """The game now without its history: the state, the prompt and the hexes each side threatens (``gm_at_table``:
    the table has a game master, see :func:`prompt_to_dict`)."""
    return {
        "state": state_to_dict(game),
        "prompt": prompt_to_dict(game.prompt, game.scenario, gm_at_table),
        "threatened": {
            s.id: [[h.q, h.r] for h in sorted(game.threatened(s.id))] for s in game.scenario.sides
        },
    }


def game_snapshot(game: Game, gm_at_table: bool = False) -> dict[str, Any]:
    """Everything a tablet needs to draw the game now (the scenario is sent separately, once)."""
    current = game_current(game, gm_at_table)
    return {"state": current["state"], "prompt": current["prompt"], "history": history_to_list(game),
            "threatened": current["threatened"]}


class HistoryDelta:
    """What changed in a game's history since the previous call: the Clone pattern's update, not the whole.

    The entries already sent are remembered by identity, so an undo (entries dropped), an action, or both
    at once are all told by the index of the first entry that differs.
    """

    def __init__(self) -> None:
        self._game: Game | None = None
        self._sent: list[Played] = []

    def rewritten(self, game: Game) -> None:
        """The game's texts were made again (the table's language changed): the next call sends its whole history."""
        self._game, self._sent = game, []

    def since_last(self, game: Game) -> tuple[int, list[dict[str, Any]]]:
        """``(history_from, entries)``: the entries from ``n = history_from`` on replace the ones sent.

        Another game (a new or loaded one) counts as fully sent: tablets take a snapshot of it, so its
        history is never published whole.
        """
        if game is not self._game:
            kept = len(game.history)
        else:
            kept = 0
            for sent, played in zip(self._sent, game.history, strict=False):
                if sent is not played:
                    break
                kept += 1
        self._game, self._sent = game, list(game.history)
        return kept + 1, history_to_list(game, kept)
