"""The engine's published game messages (PUB ``tcp://127.0.0.1:5560``; commands ROUTER ``tcp://127.0.0.1:5561``).

Every engine message carries ``engine_run`` (a new id each time the engine starts) and ``game_id`` (the
journal's game id). ``seq`` continues across restarts (wall-clock microseconds at least), so a tablet
never takes a restarted engine's updates for old ones.

``game.state``        :class:`GameStateMessage`     after every change: what changed (Clone pattern).
``game.events``       :class:`GameEventsMessage`    per action (and per refused camera move): log text.
``game.scenario``     :class:`GameScenarioMessage`  when a game starts or is loaded.
``engine.heartbeat``  :class:`EngineHeartbeat`      once a second.
``table``, ``table.view``: :mod:`engine.wire.table_messages`.

``game.state`` holds the game's current part (state, prompt, threatened hexes) and only the history entries
that changed since the previous ``game.state``: ``history`` from entry ``history_from`` on (an undo sends
none, so the entries from there are dropped). ``revision`` counts the engine run's ``game.state`` messages,
so a tablet knows it missed one: it builds on its copy only when that copy is of revision ``revision - 1``
(same run, same game), or when ``history_from`` is 1; otherwise it asks for a snapshot, whose reply holds
the whole game and its ``revision``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.wire.envelope import Envelope, Message, register
from engine.wire.fields import (
    read_bool,
    read_dict,
    read_float,
    read_int,
    read_objects,
    read_str,
    require,
)
from engine.wire.game_state import check_current, check_history, merge_history

DEFAULT_ENGINE_PUB = "tcp://127.0.0.1:5560"
DEFAULT_ENGINE_COMMANDS = "tcp://127.0.0.1:5561"

TOPIC_GAME_STATE = b"game.state"
TOPIC_GAME_EVENTS = b"game.events"
TOPIC_GAME_SCENARIO = b"game.scenario"
TOPIC_ENGINE_HEARTBEAT = b"engine.heartbeat"


@dataclass(frozen=True, slots=True)
class EngineMessage(Message):
    """Base of the engine's published messages: which engine run and which game they belong to."""

    engine_run: str
    game_id: int | None

    def body(self) -> dict[str, Any]:
        return {"engine_run": self.engine_run, "game_id": self.game_id}

    @staticmethod
    def _ids(obj: Mapping[str, Any], where: str) -> tuple[str, int | None]:
        game_id = None if obj.get("game_id") is None else read_int(obj, "game_id", where)
        return read_str(obj, "engine_run", where), game_id


@register
@dataclass(frozen=True, slots=True)
class GameStateMessage(EngineMessage):
    """The game now, with the history entries changed since the previous ``game.state`` (module doc)."""

    TOPIC: ClassVar[bytes] = TOPIC_GAME_STATE

    revision: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    prompt: dict[str, Any] = field(default_factory=dict)
    threatened: dict[str, Any] = field(default_factory=dict)
    history_from: int = 1
    history: tuple[dict[str, Any], ...] = ()

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "revision": self.revision, "state": self.state, "prompt": self.prompt,
                "threatened": self.threatened, "history_from": self.history_from, "history": list(self.history)}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> GameStateMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        check_current(obj, where)
        history_from = read_int(obj, "history_from", where, minimum=1)
        history = check_history(require(obj, "history", where), f"{where}.history", history_from)
        return cls(envelope.seq, envelope.sent_at, run, game, read_int(obj, "revision", where),
                   dict(obj["state"]), dict(obj["prompt"]), dict(obj["threatened"]), history_from,
                   tuple(dict(h) for h in history))

    @classmethod
    def whole(cls, seq: int, sent_at: float, engine_run: str, game_id: int | None, revision: int,
              game: Mapping[str, Any]) -> GameStateMessage:
        """A ``game.state`` carrying a whole game (``history_from`` 1), e.g. a snapshot's; tools and tests."""
        return cls(seq, sent_at, engine_run, game_id, revision, dict(game["state"]), dict(game["prompt"]),
                   dict(game["threatened"]), 1, tuple(game["history"]))

    def apply_to(self, held: Mapping[str, Any] | None, held_revision: int | None) -> dict[str, Any] | None:
        """The whole game after this update, built on ``held`` (the same run's and game's game at
        ``held_revision``); None when this update cannot be applied to it: ask for a snapshot."""
        if self.history_from == 1:
            return self.game(list(self.history))
        if held is None or held_revision != self.revision - 1:
            return None
        history = merge_history(held.get("history") or [], self.history_from, self.history)
        return None if history is None else self.game(history)

    def game(self, history: list[Any]) -> dict[str, Any]:
        """The whole game with ``history`` (what a snapshot reply's ``game`` holds)."""
        return {"state": self.state, "prompt": self.prompt, "history": history,
                "threatened": self.threatened}


@register
@dataclass(frozen=True, slots=True)
class GameEventsMessage(EngineMessage):
    """What action ``n`` (1-based; 0 for a refused camera move) caused, for the log and animations."""

    TOPIC: ClassVar[bytes] = TOPIC_GAME_EVENTS

    n: int = 0
    action: str = ""
    events: tuple[dict[str, Any], ...] = ()
    source: str = "tablet"  # tablet | camera | engine (override, undo)

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "n": self.n, "action": self.action, "events": list(self.events),
                "source": self.source}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> GameEventsMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        events = read_objects(obj, "events", where, ("kind", "text"))
        for i, event in enumerate(events):
            read_str(event, "kind", f"{where}.events[{i}]")
            read_str(event, "text", f"{where}.events[{i}]")
        return cls(envelope.seq, envelope.sent_at, run, game, read_int(obj, "n", where),
                   read_str(obj, "action", where), events, read_str(obj, "source", where))


@register
@dataclass(frozen=True, slots=True)
class GameScenarioMessage(EngineMessage):
    """The scenario being played (``engine.snapshot.scenario_to_dict``), sent when a game starts or loads."""

    TOPIC: ClassVar[bytes] = TOPIC_GAME_SCENARIO

    scenario: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "scenario": self.scenario}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> GameScenarioMessage:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        scenario = read_dict(obj, "scenario", where)
        for key in ("id", "figures", "board"):
            require(scenario, key, f"{where}.scenario")
        return cls(envelope.seq, envelope.sent_at, run, game, scenario)


@register
@dataclass(frozen=True, slots=True)
class EngineHeartbeat(EngineMessage):
    """The engine is alive; ``dropped`` counts malformed messages it refused since it started."""

    TOPIC: ClassVar[bytes] = TOPIC_ENGINE_HEARTBEAT

    uptime_s: float = 0.0
    dropped: int = 0
    desync: bool = False

    def body(self) -> dict[str, Any]:
        return {**EngineMessage.body(self), "uptime_s": self.uptime_s, "dropped": self.dropped,
                "desync": self.desync}

    @classmethod
    def parse_body(cls, obj: Mapping[str, Any], envelope: Envelope) -> EngineHeartbeat:
        where = envelope.topic
        run, game = cls._ids(obj, where)
        return cls(envelope.seq, envelope.sent_at, run, game, read_float(obj, "uptime_s", where, low=0.0),
                   read_int(obj, "dropped", where), read_bool(obj, "desync", where))
