"""The headless demo: a scripted player that plays a whole game through the camera loop and prints its log.

It joins the engine like a tablet (:class:`engine.service.client.EngineClient`) and keeps a local
replica of the game (the snapshot's history replayed on the scenario) only to ask
:class:`engine.autoplay.AutoPlayer` what to do. Rolls and choices go to the engine's command socket;
a move is made by a hand on the synthetic table and judged by the engine from what the camera sees;
a removal takes the figure off the table. With ``dice`` (the engine's ``--dice camera``) every roll is thrown
as dice on the synthetic table and read by the camera (:mod:`.table_dice`). Every wait has a deadline and prints
progress.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion_app.viewmodels.words import cell_noun, join_clauses, join_list
from engine import wire
from engine.actions import Action, Choose, Move, Remove, Roll, action_from_dict, action_to_dict, action_to_text
from engine.autoplay import AutoPlayer
from engine.game import Game
from engine.hexes import Hex
from engine.i18n import gettext_for
from engine.prompts import PromptKind
from engine.scenario import Scenario, load_scenario
from engine.service.client import EngineClient
from vision.synthetic.control_client import TableControlClient

from .table_dice import DiceStats, DiceThrower
from .table_moves import TableMove, corrections, crowds, make_room, place_on, table_hex

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

JUDGE_TIMEOUT_S = 25.0  # a move: the hand (≤1.5 s), settling, the engine; generous for a busy machine
TABLE_TIMEOUT_S = 40.0  # the first full view of the table
PROGRESS_EVERY_S = 5.0


class DemoStalled(RuntimeError):
    """The game did not go on within a deadline; the text says what was awaited and what the table shows."""


@dataclass
class HeadlessStats:
    """What a headless game did, for the report and the tests."""

    actions: int = 0
    camera_moves: int = 0
    camera_removals: int = 0
    tablet_answers: int = 0
    table_corrections: int = 0
    move_seconds: list[float] = field(default_factory=list)
    dice: DiceStats | None = None  # the rolls thrown on the synthetic table and read by the camera
    winner: str | None = None
    seconds: float = 0.0


class HeadlessPlayer:
    """Answers every prompt of the engine's game until it is over; see the module docstring."""

    def __init__(self, engine: EngineClient, table: TableControlClient, scenario: Scenario, seed: int,
                 say: Callable[[str], None] = print, judge_timeout_s: float = JUDGE_TIMEOUT_S,
                 dice: bool = False) -> None:
        self.engine, self.table, self.scenario, self.say = engine, table, scenario, say
        # The plain aims, no exploring: the demo shows the camera loop on a game that moves towards its end;
        # exploring every rule group is the auto games' job (engine.autoplay, hexa play --auto).
        # Nor does the hand build a stack whose tags would overlap (the camera could not tell them apart).
        self.player = AutoPlayer(seed, explore=0.0, crowded=crowds)
        self.judge_timeout_s = judge_timeout_s
        self.game = Game(scenario)
        self.stats = HeadlessStats()
        self.view: dict[int, wire.FigureSighting] = {}  # the engine's newest table.view, by marker
        self.dice = DiceThrower(engine, table, self._wait, self._history, say, DemoStalled) if dice else None
        self.stats.dice = None if self.dice is None else self.dice.stats

    def _poll(self, timeout_s: float) -> None:
        message = self.engine.poll(timeout_s)
        if isinstance(message, wire.TableViewMessage):
            self.view = {f.marker: f for f in message.figures}

    # -- keeping the replica -----------------------------------------------------------------------
    def _history(self) -> list[dict[str, Any]]:
        assert self.engine.game is not None
        return list(self.engine.game["history"])

    def _catch_up(self) -> None:
        """Apply the engine's new actions to the replica and print them with their events."""
        history = self._history()
        if len(history) < len(self.game.history):
            self.game = Game.replay(self.scenario, [action_from_dict(h["action"]) for h in history])
            return
        for entry in history[len(self.game.history):]:
            self.game.apply(action_from_dict(entry["action"]))
            for event in entry["events"]:
                self.say(f"    - {event['text']}")

    def _name(self, figure: str) -> str:
        return self.scenario.figure(figure).name

    # -- waiting for the engine ----------------------------------------------------------------------
    def _wait(self, what: str, done: Callable[[], bool], timeout_s: float, check: Callable[[], None] | None = None
              ) -> float:
        start = time.monotonic()
        next_note = start + PROGRESS_EVERY_S
        while not done():
            if check is not None:
                check()
            now = time.monotonic()
            if now - start > timeout_s:
                raise DemoStalled(_("waited {seconds:.0f} s for {what}; {table}", seconds=timeout_s, what=what,
                                    table=self._table_text()))
            if now >= next_note:
                next_note = now + PROGRESS_EVERY_S
                self.say(_("    … still waiting for {what} ({seconds:.0f} s)", what=what, seconds=now - start))
            self._poll(min(0.5, max(0.01, start + timeout_s - now)))
        return time.monotonic() - start

    def _engine_sees(self, move: TableMove) -> bool:
        """Whether the engine's view of the table shows ``move`` done (settled on its hex, or gone)."""
        seen = self.view.get(move.marker)
        if move.to is None:
            return seen is None or seen.state in ("lifted", "lost")
        return seen is not None and seen.state == "settled" and seen.hex == [move.to.q, move.to.r]

    def _table_text(self) -> str:
        table = self.engine.table or {}
        parts = [d["text"] for d in table.get("desync", ())]
        if table.get("illegal"):
            parts.append(_("illegal move: {move}", move=table["illegal"]))
        cameras = [_("camera {id}: {status} ({problem})", id=c["id"], status=c["status"], problem=c["problem"])
                   if c.get("problem") else _("camera {id}: {status}", id=c["id"], status=c["status"])
                   for c in table.get("cameras", ())]
        return _("the engine reports: {report}", report=join_clauses(parts + cameras) or _("nothing about the table"))

    def wait_for_table(self) -> None:
        """Until the engine has seen every figure that is on the table settled (first sight is not a move)."""
        wanted = [place_on(self.scenario, f.id, fig.hex) for f in self.scenario.figures
                  if (fig := self.game.state.figures[f.id]).on_table and fig.hex is not None]
        kind = self.scenario.board.kind
        self._wait(_("the camera to see every figure on its {cell}", cell=cell_noun(kind)),
                   lambda: all(self._engine_sees(m) for m in wanted), TABLE_TIMEOUT_S)
        self.say(_("The camera sees all {n} figures on their {cells}.", n=len(wanted), cells=cell_noun(kind, 2)))

    # -- answering prompts -----------------------------------------------------------------------------
    def _send(self, action: Action) -> None:
        reply = self.engine.request("action", action=action_to_dict(action))
        if not reply.ok:
            refused = action_to_text(action, self.scenario.board)
            raise DemoStalled(_("the engine refused {action}: {error}", action=refused, error=reply.error))
        self.stats.tablet_answers += 1

    def _hand(self, move: TableMove) -> None:
        if move.to is None:
            self.table.remove(move.marker)
        else:
            self.table.place(move.marker, move.x_mm, move.y_mm, move.angle_deg, move.height_mm)

    def _cell_choice(self, action: Action) -> tuple[str, Hex] | None:
        """A choice about a figure that names a free cell no other option names (a step of a move): the figure
        and the cell the hand puts it on, so the camera answers it (None: the tablet answers)."""
        prompt = self.game.prompt
        if not isinstance(action, Choose) or prompt.kind is not PromptKind.CHOOSE or prompt.figure is None:
            return None
        option = prompt.option(action.option)
        if option is None or option.hex is None or option.figure not in (None, prompt.figure):
            return None
        same = [o for o in prompt.options if o.hex == option.hex and o.figure in (None, prompt.figure)]
        here = self.game.state.figures[prompt.figure].hex
        taken = any(f.hex == option.hex for f in self.game.state.alive() if f.id != prompt.figure)
        return (prompt.figure, option.hex) if len(same) == 1 and option.hex != here and not taken else None

    def _through_table(self, action: Move | Remove | Choose, cell: tuple[str, Hex] | None = None) -> None:
        n = len(self.game.history)
        if isinstance(action, Move | Choose):
            if isinstance(action, Move):
                figure, to = action.figure, action.to
            else:
                assert cell is not None, "a choice goes through the table only with its figure and cell"
                figure, to = cell
            markers = self.table.markers()
            for slide in make_room(self.scenario, figure, to, markers):  # the stack there moves apart first
                self._hand(slide)
            self._hand(place_on(self.scenario, figure, to, markers))
            what = _("the camera to see {name} on {cell}", name=self._name(figure), cell=self.scenario.label(to))
        else:
            self._hand(TableMove(action.figure, self.scenario.figure(action.figure).marker_id, None))
            what = _("the camera to see {name} taken off the table", name=self._name(action.figure))

        def check() -> None:
            illegal = (self.engine.table or {}).get("illegal")
            if illegal is not None and illegal.get("figure") == (cell[0] if cell else getattr(action, "figure", "")):
                raise DemoStalled(_("the engine judged the move illegal: {reason}", reason=illegal.get("reason")))

        seconds = self._wait(what, lambda: len(self._history()) > n, self.judge_timeout_s, check)
        played = self._history()[n]["action"]
        if played != action_to_dict(action):
            raise DemoStalled(_("the engine took {played} from the table instead of {action}", played=played,
                                action=action_to_dict(action)))
        if isinstance(action, Move | Choose):
            self.stats.camera_moves += 1
            self.stats.move_seconds.append(seconds)
            self.say(_("    (seen by the camera and judged in {seconds:.1f} s)", seconds=seconds))
        else:
            self.stats.camera_removals += 1

    def _follow_game(self) -> None:
        """Let the hand put figures where the game moved them itself (retreats, advances)."""
        prompt = self.game.prompt
        skip = prompt.figure if prompt.kind in (PromptKind.MOVE, PromptKind.REMOVE) else None
        fixes = corrections(self.scenario, self.game.state.to_dict(), self.table.markers(), skip)
        for fix in fixes:
            if fix.to is None:
                self.say(_("  (the hand puts {name} off the table, as the game says)", name=self._name(fix.figure)))
            else:
                self.say(_("  (the hand puts {name} on {cell}, as the game says)", name=self._name(fix.figure),
                           cell=self.scenario.label(fix.to)))
            self._hand(fix)
            self.stats.table_corrections += 1
        if fixes:  # the engine must see them where they now stand before their next move counts
            self._wait(_("the camera to see the hand's corrections"),
                       lambda: all(self._engine_sees(f) for f in fixes), self.judge_timeout_s)

    def play(self) -> HeadlessStats:
        """Play until the game is over; raises :class:`DemoStalled` when something does not go on."""
        start = time.monotonic()
        self.engine.sync()
        self._catch_up()
        self._follow_game()
        self.wait_for_table()
        while True:
            self._catch_up()
            prompt = self.game.prompt
            if prompt.kind is PromptKind.GAME_OVER:
                break
            action = self.player.choose(self.game)
            self.say(f"{prompt.text}")
            self.say(f"  → {self._answer_text(action)}")
            cell = self._cell_choice(action)
            if isinstance(action, Remove) or (isinstance(action, Move) and not self._stays(action)):
                self._through_table(action)
            elif cell is not None and isinstance(action, Choose):
                self._through_table(action, cell)
            elif isinstance(action, Roll) and self.dice is not None and self.dice.can_throw(prompt):
                self.dice.answer(prompt, Roll(action.values), len(self.game.history))
            else:
                n = len(self.game.history)
                self._send(action)

                def answered(n: int = n) -> bool:
                    return len(self._history()) > n

                self._wait(_("the engine's new state"), answered, self.judge_timeout_s)
            self.stats.actions += 1
            self._catch_up()
            self._follow_game()
        self.stats.winner = self.game.state.winner
        self.stats.seconds = time.monotonic() - start
        victory = [e.text for p in self.game.history for e in p.events if e.kind == "victory"]
        winner = self.scenario.side(self.game.state.winner).name if self.game.state.winner else _("nobody")
        if victory:
            self.say("\n" + _("Game over. Winner: {side} — {why}", side=winner, why=victory[-1]))
        else:
            self.say("\n" + _("Game over. Winner: {side}", side=winner))
        return self.stats

    def _stays(self, action: Move) -> bool:
        here = self.game.state.figures[action.figure].hex
        marker = self.table.markers().get(self.scenario.figure(action.figure).marker_id)
        return action.to == here and marker is not None and table_hex(self.scenario, marker) == here

    def _answer_text(self, action: Action) -> str:
        if isinstance(action, Roll):
            return _("rolled {faces}", faces=join_list(map(str, action.values)))
        if isinstance(action, Choose):
            option = self.game.prompt.option(action.option)
            return _("chose {option}", option=option.label if option else action.option)
        if isinstance(action, Move):
            if self._stays(action):
                return _("{name} stays on {cell}", name=self._name(action.figure), cell=self.scenario.label(action.to))
            return _("the hand moves {name} to {cell}", name=self._name(action.figure),
                     cell=self.scenario.label(action.to))
        return _("the hand takes {name} off the table", name=self._name(action.figure))


def play_headless(scenario_id: str, engine_pub: str, engine_commands: str, control: str, seed: int,
                  say: Callable[[str], None] = print, dice: bool = False) -> HeadlessStats:
    """Play one game on running services (see :class:`HeadlessPlayer`; ``dice``: throw every roll on the synthetic
    table, for an engine run with ``--dice camera``); raises DemoStalled or TimeoutError."""
    scenario = load_scenario(scenario_id)
    engine = EngineClient(engine_pub, engine_commands)
    table = TableControlClient(control)
    try:
        return HeadlessPlayer(engine, table, scenario, seed, say, dice=dice).play()
    finally:
        engine.close()
        table.close()
