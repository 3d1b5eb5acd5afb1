"""The window demo's dice: with ``--dice camera`` nobody at the synthetic table could throw the dice a roll prompt asks
for, so the demo throws them, as a player at the table would, and the window shows what a real table shows.

For every roll prompt whose dice the camera reads (:func:`engine.dice_reading.camera_reads`) the roller throws each
of its throws in turn (:func:`engine.dice_reading.die_groups`: one side's dice for one figure at once) into the
synthetic tray with random faces: the first at once, the next when the engine's reading of the one before awaits
it. The dice tumble and settle on the table (the Camera screen shows them), the camera reads them and the tablet
shows "Read by the camera: …" with its countdown. The rest is the player's: "That's wrong" (the roller throws the
dice again), a question's face buttons, typing the faces, "Roll for me", or the countdown taking the roll.
The headless demo's scripted player throws its own chosen faces instead (:mod:`.table_dice`).
"""

from __future__ import annotations

import logging
import random
import threading
from types import TracebackType
from typing import Any

import zmq

from engine.dice_reading import DIE_KINDS, die_groups
from engine.prompts import DieRequest
from engine.service.client import EngineClient
from vision.synthetic.control_client import ControlError, TableControlClient

from .table_dice import TRAY, numeral

log = logging.getLogger(__name__)

POLL_S = 0.2  # how long the roller listens to the engine before it looks at the prompt again


def prompt_dice(prompt: dict[str, Any]) -> tuple[DieRequest, ...]:
    """The dice a prompt (as the engine publishes it) asks for, when the camera reads every one; else none."""
    if prompt.get("kind") != "roll":
        return ()
    dice = tuple(DieRequest(str(d.get("roller", "")), int(d.get("sides", 0)), str(d.get("purpose", "")),
                            d.get("figure")) for d in prompt.get("dice") or ())
    return dice if dice and all(d.sides in DIE_KINDS for d in dice) else ()


class DiceRoller:
    """Throws the dice of every roll prompt on the synthetic table, on its own thread until :meth:`close`."""

    def __init__(self, engine_pub: str, engine_commands: str, control: str, seed: int = 1,
                 context: zmq.Context[zmq.Socket[bytes]] | None = None) -> None:
        self.engine_pub, self.engine_commands, self.control = engine_pub, engine_commands, control
        self._context = context or zmq.Context.instance()
        self._random = random.Random(seed)
        self.throws = 0  # dice throws made, for logs and tests
        self._roll_at = -1  # the history length of the roll prompt being thrown for
        self._thrown: set[int] = set()  # … its throws (die groups) thrown
        self._read = False  # … whether the engine showed a reading of them (gone again: "that's wrong")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dice-roller", daemon=True)
        self._thread.start()

    def __enter__(self) -> DiceRoller:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=3.0)

    def _run(self) -> None:
        engine = EngineClient(self.engine_pub, self.engine_commands, self._context)
        table = TableControlClient(self.control, self._context)
        try:
            engine.sync()
            while not self._stop.is_set():
                engine.poll(POLL_S)
                if engine.game is not None:
                    self._step(engine.game, (engine.table or {}).get("dice"), table)
        except (ControlError, TimeoutError, zmq.ZMQError) as exc:
            if not self._stop.is_set():
                log.warning("the demo's dice roller stopped: %s", exc)
        finally:
            engine.close()
            table.close()

    def _step(self, game: dict[str, Any], reading: Any, table: TableControlClient) -> None:
        """Throw what the roll prompt shown awaits (nothing while the player has the reading or the question)."""
        dice = prompt_dice(game.get("prompt") or {})
        n = len(game.get("history") or ())
        if not dice:
            self._roll_at = -1
            return
        if n != self._roll_at:  # a new roll prompt
            self._roll_at, self._thrown, self._read = n, set(), False
        reading = reading if isinstance(reading, dict) else None
        if reading is None:
            if self._read:  # the reading is gone without the roll: "that's wrong", the dice are thrown again
                self._thrown, self._read = set(), False
            if not self._thrown:
                self._throw(dice, 0, table)
            return
        self._read = True
        if reading.get("state") != "partial":
            return  # a proposal or a question: the player's
        values = list(reading.get("values") or ())
        for g, group in enumerate(die_groups(dice)):
            if any(i >= len(values) or values[i] is None for i in group.indexes):
                if g not in self._thrown:
                    self._throw(dice, g, table)
                return

    def _throw(self, dice: tuple[DieRequest, ...], g: int, table: TableControlClient) -> None:
        group = die_groups(dice)[g]
        faces = [(str(DIE_KINDS[dice[i].sides]), numeral(dice[i].sides, self._random.randint(1, dice[i].sides)))
                 for i in group.indexes]
        table.roll(faces, TRAY)
        self._thrown.add(g)
        self.throws += 1
        log.info("dice roller: %s thrown in the tray", faces)
