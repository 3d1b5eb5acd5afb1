"""The engine service's state without its sockets: the journaled game, the table and the commands.

:class:`EngineSession` answers validated commands and takes camera messages; each call returns a
:class:`Changes` saying what the server must publish. Socket handling, numbering and timing live in
:mod:`engine.service.server`.
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration.registration import ManualPoint, RegistrationError
from engine.actions import Action, Face, Move, Remove, Roll, action_from_dict, action_to_text
from engine.board import Cell
from engine.errors import EngineError
from engine.game import Game
from engine.i18n import current_language, gettext_for, set_language
from engine.journal import Journal, JournaledGame
from engine.parallax import on_raised_tile
from engine.prompts import Decider
from engine.record import export_record
from engine.rules import find_ruleset
from engine.rules.content import QueryInput
from engine.scenario import Scenario, load_scenario
from engine.service import gm_commands, roles
from engine.service import overrides as override_log
from engine.service.answered import AnswerBook
from engine.service.changes import Changes, CommandError, EventsOut
from engine.service.dice_answers import DiceAnswers
from engine.service.files import choose_scenario, save_text, scenario_names
from engine.service.map_registration import MapRegistration
from engine.snapshot import (
    events_to_list,
    game_current,
    game_snapshot,
    query_to_dict,
    reach_to_list,
    scenario_to_dict,
)
from engine.table_fusion import DEFAULT_DUPLICATE_HEX, FusedMarker, Sighting, fuse
from engine.table_sync import IllegalMove, SyncReport, TableSync
from engine.texts import cell_noun, declared_text, join_list
from engine.wire import SEEN_STATES, DiceMessage, EngineRequest, FigureSighting, MarkerTrack, TracksMessage

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

MAX_CAMERA_ACTIONS_PER_VIEW = 8  # a view of the table answers at most this many prompts in a row


@dataclass
class CameraView:
    """The newest tracks of one camera service (kept while it is silent, so nothing vanishes)."""

    tracks: TracksMessage


class EngineSession:
    """A journaled game, the table as the cameras see it, and the commands the tablets send."""

    def __init__(self, journal: Journal, journaled: JournaledGame, save_dir: Path | None = None,
                 scenario_dir: Path | None = None) -> None:
        self.journal = journal
        self.overrides = override_log.OverrideLog(journal)
        self.answers = AnswerBook(journal.path)  # the answers to requests that changed the game, per client
        self.save_dir = (save_dir or Path.cwd()).resolve()
        self.scenario_dir = scenario_dir  # new_game takes the .toml files here by name, besides the bundled ones
        self.cameras: dict[str, CameraView] = {}
        self.fused: dict[int, FusedMarker] = {}
        self.duplicates: tuple[int, ...] = ()
        self.report: SyncReport | None = None
        self._last_illegal: IllegalMove | None = None
        # The tablet named game master (``hexa engine --gm NAME``): a table with a GM, who alone answers the prompts
        # the rules leave to the GM. None: the table plays without one, and the table decides those too.
        self.gm_tablet: str | None = None
        self.dice = DiceAnswers()  # the dice the camera reads in the tray (the server sets the mode and countdown)
        self._start(journaled)

    def _start(self, journaled: JournaledGame) -> None:
        self.journaled = journaled
        self.registration = MapRegistration(journaled.scenario)
        self.sync = TableSync(journaled.scenario, anchor_ids=self.registration.anchor_ids)
        self._last_illegal = None
        self.report = None

    # -- accessors -----------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.journaled.game

    @property
    def scenario(self) -> Scenario:
        return self.journaled.scenario

    @property
    def game_id(self) -> int:
        return self.journaled.id

    def scenario_dict(self) -> dict[str, Any]:
        """The scenario as the tablets get it, with ``gm_only``: the commands only the game master may send at this
        table, each with the reason the other tablets grey its control with (:mod:`engine.service.roles`)."""
        return {**scenario_to_dict(self.scenario, self.game.points()), "gm_only": roles.gm_only(self.gm_tablet)}

    @property
    def gm_at_table(self) -> bool:
        return self.gm_tablet is not None

    def snapshot_dict(self) -> dict[str, Any]:
        return game_snapshot(self.game, self.gm_at_table)

    def current_dict(self) -> dict[str, Any]:
        """The game now without its history, as ``game.state`` carries it."""
        return game_current(self.game, self.gm_at_table)

    def gms_to_answer(self) -> bool:
        """The pending prompt is the game master's to answer, and this table has one."""
        return self.game.prompt.decider(self.gm_at_table) is Decider.GM

    def close(self) -> None:
        self.overrides.close()
        self.answers.close()

    # -- camera side ---------------------------------------------------------------------------------
    def _raised(self, m: MarkerTrack, camera_mm: tuple[float, float, float] | None) -> tuple[float, float]:
        """A figure's tag on a raised tile stands level × level height higher than the camera service assumed:
        its table position moved along the camera ray (when the camera says where it is)."""
        lift_mm = self.scenario.level_height_mm
        if (lift_mm <= 0 or camera_mm is None or m.height_mm is None
                or self.scenario.figure_by_marker(m.id) is None):
            return m.x_mm, m.y_mm
        board = self.scenario.board

        def lift_at(x: float, y: float) -> float:
            mx, my = self.registration.to_map(np.array([[x, y]], dtype=np.float64))[0]
            cell = board.locate(float(mx), float(my))
            return board.level(cell) * lift_mm if cell in board else 0.0

        return on_raised_tile(m.x_mm, m.y_mm, m.height_mm, camera_mm, lift_at)

    def refresh_table(self) -> Changes:
        """Fuse every camera's newest view, register it on the map and compare it with the game."""
        sightings = [Sighting(m.id, *self._raised(m, view.tracks.camera_mm), m.state, m.confidence, camera,
                              m.angle_deg)
                     for camera, view in self.cameras.items() for m in view.tracks.markers]
        fusion = fuse(sightings, DEFAULT_DUPLICATE_HEX * self.scenario.board.cell_mm)
        self.duplicates = fusion.duplicates
        anchors = {i: (m.x_mm, m.y_mm) for i, m in fusion.markers.items()
                   if i in self.registration.expected and m.visible}
        self.registration.update(anchors)
        markers = list(fusion.markers.values())
        if markers:
            table = np.array([[m.x_mm, m.y_mm] for m in markers], dtype=np.float64)
            mapped = self.registration.to_map(table)
            angles = self.registration.to_map_angles([m.angle_deg for m in markers])
            markers = [replace(m, x_mm=float(p[0]), y_mm=float(p[1]), angle_deg=a)
                       for m, p, a in zip(markers, mapped, angles, strict=True)]
        self.fused = {m.marker: m for m in markers}
        self.sync.observe(self.fused, self.game)
        return self.follow_table()

    def follow_table(self) -> Changes:
        """Apply the actions the table gives, one prompt after another, and keep the last report."""
        changes = Changes()
        for _turn in range(MAX_CAMERA_ACTIONS_PER_VIEW):
            report = self.sync.step(self.game)
            self.report = report
            if report.action is None or (self.gms_to_answer() and not isinstance(report.action, Face)):
                break  # the cameras never give the game master's answer
            try:
                changes.merge(self._apply(report.action, source="camera"))
            except EngineError as exc:
                text = action_to_text(report.action, self.scenario.board)
                log.warning("the table's %s does not apply: %s", text, exc)
        if self.report is not None and self.report.illegal != self._last_illegal:
            illegal = self.report.illegal
            if illegal is not None:
                text = _("{name} may not move to {cell}: {reason}. Legal {cells}: {legal}",
                         name=self.sync.name(illegal.figure), cell=self.scenario.label(illegal.to),
                         reason=illegal.reason, cells=cell_noun(self.scenario.board.kind, 2),
                         legal=join_list(illegal.legal) or _("none"))
                log.info("illegal move on the table: %s", text)
                data = illegal.to_dict(self.scenario)
                changes.events.append(EventsOut(len(self.game.history), f"move {illegal.figure} "
                                                f"{self.scenario.label(illegal.to)} (refused)",
                                                [{"kind": "illegal_move", "text": text, "data": data}], "camera"))
            self._last_illegal = illegal
        return changes

    def take_dice(self, message: DiceMessage, now: float) -> bool:
        """The camera service's trays; True when the dice reading the tablets show changed."""
        return any([self.dice.take(self.game, tray, now, self.gms_to_answer()) for tray in message.trays])

    def dice_due(self, now: float) -> Changes:
        """Apply the tray's proposal once its countdown ran out (marked as read by the camera)."""
        roll = self.dice.due(self.game, now)
        return Changes() if roll is None else self._roll_read(roll)

    def _roll_read(self, roll: Roll) -> Changes:
        changes = self._apply(roll, source="camera")
        changes.merge(self.follow_table())
        return changes

    def view_figures(self) -> tuple[FigureSighting, ...]:
        """Every fused marker in map millimetres with its hex and figure, for ``table.view``."""
        out = []
        for marker in self.fused.values():
            figure = self.sync.figure_of(marker.marker)
            h = self.sync.hexes.locate(marker.marker, marker.x_mm, marker.y_mm) if marker.visible else None
            direction = self.sync.facing_of(marker, h) if h is not None else None
            angle = None if marker.angle_deg is None else round(marker.angle_deg, 1)
            out.append(FigureSighting(marker.marker, figure, round(marker.x_mm, 2),
                                      round(marker.y_mm, 2), None if h is None else [h.q, h.r], marker.state,
                                      marker.cameras, angle, direction))
        return tuple(out)

    def table_fields(self, now: float | None = None) -> dict[str, Any]:
        """The game-dependent part of the ``table`` message (cameras are added by the server); ``now``: the
        monotonic clock, for what is left of a dice proposal's countdown."""
        report = self.report
        prompt = self.game.prompt
        lifted = []
        desync: list[dict[str, Any]] = []
        pending: list[dict[str, Any]] = []
        illegal = provisional = None
        if report is not None:
            if report.provisional is not None:
                provisional = report.provisional.to_dict(self.scenario)
            for figure in report.in_hand:
                moves = reach_to_list(prompt.moves, self.scenario) if prompt.figure == figure else []
                lifted.append({"figure": figure, "moves": moves})
            desync = [d.to_dict() for d in report.desync]
            pending = [p.to_dict() for p in report.pending]
            illegal = None if report.illegal is None else report.illegal.to_dict(self.scenario)
        return {
            "lifted": tuple(lifted),
            "desync": tuple(desync),
            "illegal": illegal,
            "pending": tuple(pending),
            "provisional": provisional,
            "unknown_markers": self.sync.unknown_markers,
            "duplicates": self.duplicates,
            "registration": self.registration.status(),
            "dice": self.dice.view(self.game, time.monotonic() if now is None else now),
            "dice_mode": self.dice.mode,
        }

    # -- commands ------------------------------------------------------------------------------------
    def handle(self, request: EngineRequest, gm: bool = False) -> tuple[dict[str, Any], Changes]:
        """Carry out a validated command; raises :class:`CommandError` (or EngineError) with the reason.

        ``gm``: the command comes from the game master (the server decides who that is); what only the GM may
        do is :mod:`engine.service.roles`' table.
        """
        roles.check(request.cmd, gm, self.gm_tablet)
        if request.cmd == "gm":
            return self._gm(request.args)
        if request.cmd == "snapshot":
            fields, changes = self._cmd_snapshot(request.args)
            return {**fields, "gm": gm}, changes
        if request.cmd == "action" and not gm:
            raw = request.args["action"]
            roles.check_answer(self.gms_to_answer(), isinstance(raw, dict) and raw.get("kind") == "face",
                               self.game.prompt.text, self.gm_tablet)
        if request.cmd == "dice" and not gm and request.args["op"] != "mode":
            roles.check_answer(self.gms_to_answer(), False, self.game.prompt.text, self.gm_tablet)
        handler = getattr(self, f"_cmd_{request.cmd}")
        result: tuple[dict[str, Any], Changes] = handler(request.args)
        return result

    def _cmd_snapshot(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        return {"game_id": self.game_id, "language": current_language(), "scenario": self.scenario_dict(),
                "game": self.snapshot_dict()}, Changes()

    def _cmd_language(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        """Speak ``lang`` at the table: the game is rebuilt from its journal, so every text it made is remade."""
        before = current_language()
        lang = set_language(args["lang"])
        if lang == before:
            return {"language": lang}, Changes()
        journaled = override_log.resume(self.journal, self.overrides, self.game_id)
        self.journaled = journaled
        self.registration.scenario = journaled.scenario
        self.sync.renamed(journaled.scenario)
        log.info("the table speaks %s now (game %d rebuilt from the journal)", lang, self.game_id)
        return {"language": lang}, Changes(scenario=True, state=True, rewritten=True)

    # -- the game master ---------------------------------------------------------------------------------
    def _gm(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        if args["op"] == "place":
            return self._cmd_override({"figure": args["figure"], "to": args["to"]}, by="the GM")
        return gm_commands.command(self, args)

    def kept(self, change: Callable[[], object], record: Callable[[], None]) -> None:
        """Make a change outside the rules (the GM's, an override) and write it to the journal; when the write
        fails (a full disk) the change is taken back, so the game in play is always the one the journal holds."""
        before = copy.deepcopy(self.game.state)
        change()
        try:
            record()
        except BaseException:
            self.game.replace_state(before)
            raise

    def _apply(self, action: Action, source: str) -> Changes:
        events = self.journaled.apply(action)
        text = action_to_text(action, self.scenario.board)
        log.info("%s: %s", source, text)
        out = EventsOut(len(self.game.history), text, events_to_list(events), source)
        return Changes(state=True, events=[out])

    def _action_arg(self, raw: Any) -> Action:
        """The request's action; a move's ``to`` may be ``[q, r]`` or a label of the board (``"F2"``, ``"7"``)."""
        if isinstance(raw, dict) and raw.get("kind") == "move" and isinstance(raw.get("to"), str):
            to = self.cell_arg(raw["to"])
            raw = {**raw, "to": [to.q, to.r]}
        return action_from_dict(raw)

    def _cmd_dice(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        fields, taken = self.dice.command(self.game, args)
        return fields, Changes() if taken is None else self._roll_read(taken)

    def _cmd_action(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        action = self._action_arg(args["action"])
        if isinstance(action, Roll) and action.source is not None:
            action = replace(action, source=None)  # only the engine says the camera read a roll
        changes = self._apply(action, source="tablet")
        if isinstance(action, Move | Remove | Face):
            self.sync.forget_intents(action.figure)
        changes.merge(self.follow_table())
        played = changes.events[0]
        return {"n": played.n, "action": played.action, "events": played.events}, changes

    def _cmd_undo(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        if not self.game.history:
            raise CommandError(_("nothing to undo: no action has been played in this game yet"))
        last = override_log.last_seq_in_play(self.journaled)
        said = self.game.sentence(len(self.game.history))
        played = self.journaled.undo()
        undone_overrides = self.overrides.undo_after(self.game_id, last)
        self.sync.forget_intents()
        text = action_to_text(played.action, self.scenario.board)
        event = {"kind": "undone", "text": _("Took back: {action}.", action=said),
                 "data": {"overrides": undone_overrides}}
        changes = Changes(state=True, events=[EventsOut(len(self.game.history), f"undo {text}", [event], "tablet")])
        changes.merge(self.follow_table())
        return {"undone": text}, changes

    def cell_arg(self, value: Any) -> Cell:
        """A cell given as ``[q, r]`` or as a label of the scenario's board."""
        if isinstance(value, str):
            try:
                return self.scenario.board.from_label(value)
            except ValueError as exc:
                raise CommandError(str(exc)) from None
        return Cell(value[0], value[1])

    def figure_arg(self, figure: str) -> str:
        if figure not in self.game.state.figures:
            known = join_list(sorted(self.game.state.figures))
            raise CommandError(_("there is no figure {figure!r} in {scenario}; figures: {known}", figure=figure,
                                 scenario=self.scenario.name, known=known))
        return figure

    def _cmd_override(self, args: dict[str, Any], by: str = "override") -> tuple[dict[str, Any], Changes]:
        figure = self.figure_arg(args["figure"])
        to = self.cell_arg(args["to"])
        fig = self.game.state.figures[figure]
        if to not in self.scenario.board:
            raise CommandError(_("{cell} is not on the map of {scenario}", cell=self.scenario.label(to),
                                 scenario=self.scenario.name))
        if not fig.alive or not fig.on_table:
            raise CommandError(_("{name} is no longer in play; it cannot be placed", name=self.sync.name(figure)))
        after = override_log.last_seq_in_play(self.journaled)
        origin = fig.hex
        self.kept(lambda: override_log.place_figure(self.game, figure, to),
                   lambda: self.overrides.record(self.game_id, after, figure, to))
        self.sync.forget_intents(figure)
        text = f"override {figure} {self.scenario.label(to)}"
        where = "?" if origin is None else self.scenario.label(origin)
        said = (_("{name} accepted on {cell} (was {where}) by the GM.", name=self.sync.name(figure),
                  cell=self.scenario.label(to), where=where) if by == "the GM" else
                _("{name} accepted on {cell} (was {where}) by override.", name=self.sync.name(figure),
                  cell=self.scenario.label(to), where=where))
        event = {"kind": "override", "text": said, "data": {"figure": figure, "to": [to.q, to.r]}}
        changes = Changes(state=True, events=[EventsOut(len(self.game.history), text, [event], "tablet")])
        prompt = self.game.prompt
        if prompt.figure == figure and to in prompt.moves and prompt.kind.value == "move":
            changes.merge(self._apply(Move(figure, to), source="engine"))  # the move ends where it stands
        changes.merge(self.follow_table())
        return {"figure": figure, "to": [to.q, to.r]}, changes

    def _switch(self, journaled: JournaledGame) -> Changes:
        self._start(journaled)
        changes = Changes(scenario=True, state=True)
        if self.cameras:
            changes.merge(self.refresh_table())
        return changes

    def _cmd_new_game(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        scenario = choose_scenario(args["scenario"], self.scenario_dir)
        journaled = self.journal.new_game(scenario)
        return {"game_id": journaled.id}, self._switch(journaled)

    def _cmd_load(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        journaled = override_log.resume(self.journal, self.overrides, int(args["game_id"]))
        return {"game_id": journaled.id}, self._switch(journaled)

    def _cmd_save(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        text = export_record(self.game, extra_headers={"journal-game": str(self.game_id)})
        save_text(self.save_dir, args["path"], text)
        return {"path": args["path"], "actions": len(self.game.history)}, Changes()

    def _cmd_query(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        kinds = {q.name: q for q in self.game.rules.queries}
        kind = kinds.get(args["what"])
        if kind is None:
            raise CommandError(_("query.what: must be one of {known} (the queries of {title}), not {what!r}",
                                 known=", ".join(kinds) or "(none)",
                                 title=declared_text(type(self.game.rules), self.game.rules.title),
                                 what=args["what"][:40]))
        subject = args.get(kind.about)
        if subject is None:
            raise CommandError(_("query.{about}: missing: {name!r} is asked about a {about}", about=kind.about,
                                 name=kind.name))
        if kind.about == "cell":
            subject = self.scenario.label(self.cell_arg(subject))
        if kind.about == "side" and subject not in {s.id for s in self.scenario.sides}:
            raise CommandError(_("there is no side {side!r}; sides: {known}", side=subject,
                                 known=join_list(s.id for s in self.scenario.sides)))
        if kind.about == "figure" and not self.game.state.figures[self.figure_arg(subject)].alive:
            raise CommandError(_("{name} is out of the game", name=self.sync.name(subject)))
        given = None
        if kind.takes:
            cell = args.get("cell") if "cell" in kind.takes and kind.about != "cell" else None
            size = args.get("size") if "size" in kind.takes else None
            given = QueryInput(None if cell is None else self.cell_arg(cell), None if size is None else int(size))
        fields = query_to_dict(self.game, kind.name, subject, given)
        return {"what": kind.name, kind.about: subject, **fields}, Changes()

    def _cmd_scenarios(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        """The scenarios ``new_game`` takes here, by name (bundled ones and the scenario folder's files)."""
        listed: list[dict[str, Any]] = []
        for name in scenario_names(self.scenario_dir):
            try:
                s = choose_scenario(name, self.scenario_dir)
            except EngineError as exc:  # listed with the reason, so the table knows why it cannot start
                listed.append({"name": name, "error": str(exc)})
                continue
            rules = find_ruleset(s.ruleset)
            listed.append({"name": name, "title": s.name, "ruleset": s.ruleset,
                           "ruleset_title": declared_text(rules, rules.title), "description": s.description})
        return {"scenarios": listed}, Changes()

    def _cmd_register_manual(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        points = []
        for entry in args["points"]:
            figure = self.figure_arg(entry["figure"])
            h = self.cell_arg(entry["hex"])
            marker = self.sync.markers[figure]
            seen = self._table_position(marker)
            if seen is None:
                raise CommandError(_("the camera does not see {name} (marker {marker}); put it on its hex in view and "
                                     "try again", name=self.sync.name(figure), marker=marker))
            points.append(ManualPoint(self.scenario.label(h), self.scenario.board.centre_mm(h), seen))
        try:
            registration = self.registration.register_manual(points)
        except RegistrationError as exc:
            raise CommandError(str(exc)) from None
        changes = self.refresh_table()
        return {"residual_mm": round(registration.residual_mm_rms, 2)}, changes

    def _cmd_assign_marker(self, args: dict[str, Any]) -> tuple[dict[str, Any], Changes]:
        """A tag seen on the table belongs to this figure ("put a figure down, tap the figure it is")."""
        figure = self.figure_arg(args["figure"])
        marker = int(args["marker"])
        try:
            former = self.sync.assign(marker, figure)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        changes = self.refresh_table()
        return {"figure": figure, "marker": marker, "former_marker": former}, changes

    def _table_position(self, marker: int) -> tuple[float, float] | None:
        """Where the cameras see a marker in table millimetres (newest, most confident sighting)."""
        best = None
        for view in self.cameras.values():
            for m in view.tracks.markers:
                if m.id == marker and m.state in SEEN_STATES and (best is None or
                                                                            m.confidence > best.confidence):
                    best = m
        return None if best is None else (best.x_mm, best.y_mm)


def open_session(journal_path: str, scenario: str | None, game_id: int | None = None, new: bool = False,
                 save_dir: Path | None = None) -> EngineSession:
    """Open the journal and resume its game (the given one, or the newest unfinished one of the scenario),
    or start a new game of ``scenario``. Raises EngineError with the fix when neither is possible.
    A scenario given as a file makes its folder the one tablets may start scenarios from."""
    journal = Journal(journal_path)
    try:
        overrides = override_log.OverrideLog(journal)
        try:
            if game_id is not None:
                journaled = override_log.resume(journal, overrides, game_id)
            else:
                loaded = load_scenario(scenario) if scenario is not None else None
                unfinished = [g for g in journal.games() if not g.over
                              and (loaded is None or g.scenario_id == loaded.id)]
                found = journal.resume_newest([] if new else [g.id for g in reversed(unfinished)],
                                              lambda gid: override_log.resume(journal, overrides, gid))
                if found.game is not None:
                    journaled = found.game
                elif loaded is not None:
                    journaled = journal.new_game(loaded)
                else:
                    raise CommandError(_("{journal}: no unfinished game to resume. Fix: give --scenario FILE (a .toml "
                                         "file or a bundled id such as tutorial)", journal=journal_path)
                                       + "".join(f"\n{reason}" for reason in found.skipped))
        finally:
            overrides.close()
    except BaseException:
        journal.close()
        raise
    scenario_dir = Path(scenario).resolve().parent if scenario is not None and Path(scenario).is_file() else None
    session = EngineSession(journal, journaled, save_dir, scenario_dir)
    log.info("game %d of %s (%d actions so far)", journaled.id, journaled.scenario.id, len(journaled.game.history))
    return session

