"""The game master's commands at the table: taking a figure out of play, marking terrain, a ruling, a calculator.

Each is a change outside the rules, written to the journal as an override (:mod:`engine.service.overrides`) and
announced as a ``gm`` event; a calculator's result is only recorded. Placing a figure is the override command's
(:meth:`engine.service.session.EngineSession.handle`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.board import Cell
from engine.i18n import gettext_for
from engine.service import overrides as override_log
from engine.service.changes import Changes, CommandError, EventsOut
from engine.texts import declared_text, join_list

if TYPE_CHECKING:
    from engine.service.session import EngineSession

_ = gettext_for(__name__)


def command(session: EngineSession, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
    """A ``gm`` command other than placing a figure (``op``: out, terrain, ruling, calculate)."""
    op = args["op"]
    if op == "out":
        return _out(session, args)
    if op == "terrain":
        return _terrain(session, args)
    if op == "ruling":
        return _ruling(session, args)
    return _calculate(session, args)


def _event(session: EngineSession, text: str, kind: str, data: dict[str, Any], state: bool = True) -> Changes:
    event = {"kind": kind, "text": text, "data": data}
    return Changes(state=state, events=[EventsOut(len(session.game.history), f"gm {kind}", [event], "gm")])


def _out(session: EngineSession, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
    figure = session.figure_arg(args["figure"])
    after = override_log.last_seq_in_play(session.journaled)
    try:
        session.kept(lambda: override_log.take_out(session.game, figure),
                     lambda: session.overrides.record(session.game_id, after, figure, Cell(0, 0), override_log.OUT))
    except ValueError as exc:
        raise CommandError(_("{name} is already out of play ({error})", name=session.sync.name(figure),
                             error=exc)) from None
    changes = _event(session, _("The GM takes {name} out of play.", name=session.sync.name(figure)), "gm_out",
                     {"figure": figure})
    changes.merge(session.follow_table())
    return {"figure": figure}, changes


def _terrain(session: EngineSession, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
    if not session.game.rules.terrain_marks:
        raise CommandError(_("{title} takes no terrain marks in play: its rules read the scenario's map only",
                             title=declared_text(type(session.game.rules), session.game.rules.title)))
    cell = session.cell_arg(args["cell"])
    terrain = str(args["terrain"])
    after = override_log.last_seq_in_play(session.journaled)
    try:
        session.kept(lambda: override_log.mark_terrain(session.game, cell, terrain),
                     lambda: session.overrides.record(session.game_id, after, "", cell, override_log.TERRAIN, terrain))
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    label = session.scenario.label(cell)
    changes = _event(session, f"The GM marks {label} {terrain}.", "gm_terrain",
                     {"cell": [cell.q, cell.r], "terrain": terrain})
    changes.merge(session.follow_table())
    return {"cell": [cell.q, cell.r], "terrain": terrain}, changes


def _ruling(session: EngineSession, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
    key, value = str(args["key"]), args["value"]
    after = override_log.last_seq_in_play(session.journaled)
    try:
        session.kept(lambda: override_log.set_ruling(session.game, key, value),
                     lambda: session.overrides.record_data(session.game_id, after, override_log.RULING,
                                                           {"key": key, "value": value}))
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    text = (_("The GM rules {key}: {value}.", key=key, value=value) if value is not None
            else _("The GM withdraws the ruling {key}.", key=key))
    changes = _event(session, text, "gm_ruling", {"key": key, "value": value})
    changes.merge(session.follow_table())
    return {"key": key, "value": value}, changes


def _calculate(session: EngineSession, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
    calculators = {c.name: c for c in session.game.rules.calculators}
    calc = calculators.get(args["calculator"])
    if calc is None:
        raise CommandError(_("gm.calculator: {title} has no calculator {name!r}; it has: {known}",
                             title=declared_text(type(session.game.rules), session.game.rules.title),
                             name=args["calculator"][:40], known=join_list(calculators) or _("none")))
    inputs = args.get("input", {})
    try:
        result = calc.run(inputs)
    except ValueError as exc:
        raise CommandError(f"{calc.label}: {exc}") from None
    after = override_log.last_seq_in_play(session.journaled)
    session.overrides.record_data(session.game_id, after, override_log.CALCULATION,
                                  {"calculator": calc.name, "input": inputs, "result": result})
    return {"calculator": calc.name, "result": result}, Changes()
