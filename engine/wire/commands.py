"""Commands to the engine (ROUTER ``tcp://127.0.0.1:5561``) and its replies.

A request is one JSON object ``{cmd, id?, version?, ...}`` (:func:`parse_request`), answered by one
``engine.reply`` object ``{ok, error, cmd, id, seq, engine_run, ...}`` (:func:`encode_reply` /
:func:`parse_reply`). A ``snapshot`` reply also carries ``game_id``, ``scenario``, ``game`` (the whole
game, checked against :mod:`engine.wire.game_state`), ``revision`` and ``table``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.i18n import LANGUAGES, gettext_for
from engine.wire.dice_answer import DICE_MODES, DICE_OPS
from engine.wire.envelope import PROTOCOL_VERSION, dump_json, load_json, parse_envelope
from engine.wire.fields import (
    WireError,
    check_object,
    field_path,
    hex_or_label,
    read_int,
    read_objects,
    read_str,
    require,
)
from engine.wire.game_state import check_game

_ = gettext_for(__name__)

TOPIC_ENGINE_REPLY = b"engine.reply"

ENGINE_COMMANDS: tuple[str, ...] = (
    "snapshot", "action", "undo", "override", "new_game", "load", "save", "query", "register_manual",
    "assign_marker", "scenarios", "gm", "language", "dice",
)
# What the game master's ``gm`` command does (``op``): mark a cell's terrain, put any figure anywhere, take one out
# of play, give or withdraw a ruling of the rule set, run one of its calculators. Only the tablet the engine names
# GM may send it.
GM_OPS: tuple[str, ...] = ("terrain", "place", "out", "ruling", "calculate")
GM_CODE_KEY = "gm_code"  # any command may carry the GM code the engine printed at start (loopback tablets)
MAX_GM_CODE_CHARS = 64
MAX_REQUEST_BYTES = 64 * 1024  # a command is a few hundred bytes; anything near this is an error
MAX_GAME_ID = 2**63 - 1  # journal game ids are SQLite integers
MAX_NAME_CHARS = 255  # scenario and file names in commands
_ENVELOPE_KEYS = frozenset({"topic", "version", "seq", "sent_at", "engine_run", "cmd", "id", "ok", "error"})


@dataclass(frozen=True, slots=True)
class EngineRequest:
    """One validated command: ``cmd``, the client's ``id`` (echoed in the reply) and its own fields."""

    cmd: str
    args: dict[str, Any]
    id: str | int | None = None


def _name(obj: Mapping[str, Any], key: str, where: str) -> str:
    """A short printable string naming a scenario or a file."""
    value = read_str(obj, key, where)
    if not value:
        raise WireError(_("{where}: must not be empty", where=field_path(where, key)))
    if len(value) > MAX_NAME_CHARS:
        raise WireError(_("{where}: {n} characters is too long; give a name of at most {most}",
                          where=field_path(where, key), n=len(value), most=MAX_NAME_CHARS))
    if not value.isprintable():
        raise WireError(_("{where}: contains a control character (such as NUL); give a plain name",
                          where=field_path(where, key)))
    return value


def _check_command(cmd: str, obj: Mapping[str, Any]) -> None:
    where = cmd
    if cmd == "action":
        check_object(require(obj, "action", where), f"{where}.action")
    elif cmd == "override":
        read_str(obj, "figure", where)
        hex_or_label(require(obj, "to", where), f"{where}.to")
    elif cmd == "new_game":
        _name(obj, "scenario", where)
    elif cmd == "load":
        if read_int(obj, "game_id", where, minimum=1) > MAX_GAME_ID:
            raise WireError(_("{where}: must be at most {most} (a game number of the journal)",
                              where=field_path(where, "game_id"), most=MAX_GAME_ID))
    elif cmd == "save":
        _name(obj, "path", where)
    elif cmd == "query":
        _name(obj, "what", where)  # one of the rule set's queries: the session knows them
        for key in ("figure", "side"):
            if key in obj:
                read_str(obj, key, where)
        if "cell" in obj:  # a chosen cell, for queries that take one (a tapped cell, an area's centre)
            hex_or_label(obj["cell"], f"{where}.cell")
        if "size" in obj:
            read_int(obj, "size", where)
    elif cmd == "gm":
        _check_gm(obj, where)
    elif cmd == "language":
        read_str(obj, "lang", where, LANGUAGES)  # the table's language: every text the engine sends is in it
    elif cmd == "dice":
        _check_dice(obj, where)
    elif cmd == "assign_marker":
        read_int(obj, "marker", where)
        read_str(obj, "figure", where)
    elif cmd == "register_manual":
        points = read_objects(obj, "points", where, ("hex", "figure"))
        for i, point in enumerate(points):
            hex_or_label(point["hex"], f"{where}.points[{i}].hex")
            read_str(point, "figure", f"{where}.points[{i}]")


def _check_dice(obj: Mapping[str, Any], where: str) -> None:
    """``dice``: the tray's reading shown is ``wrong``, ``take`` it now, the ``faces`` tapped for the dice it could
    not read (each names the reading by ``tray`` and ``roll``), or the table's dice ``mode``."""
    op = read_str(obj, "op", where, DICE_OPS)
    if op == "mode":
        read_str(obj, "mode", where, DICE_MODES)
        return
    _name(obj, "tray", where)
    read_int(obj, "roll", where)
    if op == "faces":
        faces = require(obj, "faces", where)
        if not isinstance(faces, list) or not faces or len(faces) > 20:
            raise WireError(_("{where}: expected a list of 1 to 20 die faces, got {value!r}",
                              where=field_path(where, "faces"), value=faces))
        for i, face in enumerate(faces):
            read_int({"face": face}, "face", f"{where}.faces[{i}]", minimum=1)


def _check_gm(obj: Mapping[str, Any], where: str) -> None:
    op = read_str(obj, "op", where, GM_OPS)
    if op == "terrain":
        hex_or_label(require(obj, "cell", where), f"{where}.cell")
        _name(obj, "terrain", where)
    elif op == "place":
        read_str(obj, "figure", where)
        hex_or_label(require(obj, "to", where), f"{where}.to")
    elif op == "out":
        read_str(obj, "figure", where)
    elif op == "ruling":
        _name(obj, "key", where)
        value = require(obj, "value", where)
        if value is not None:
            read_str(obj, "value", where)
    else:
        _name(obj, "calculator", where)
        check_object(obj.get("input", {}), f"{where}.input")


def parse_request(payload: bytes | str) -> EngineRequest:
    """Validate a command; :class:`WireError` names what is wrong (size, JSON, cmd or a field)."""
    obj = load_json(payload, "request", MAX_REQUEST_BYTES)
    if "version" in obj and read_int(obj, "version", "request") != PROTOCOL_VERSION:
        raise WireError(_("{where}: protocol {version} is not supported (this engine speaks {speaks}); run the "
                          "same release of the app and the engine", where="request.version",
                          version=obj["version"], speaks=PROTOCOL_VERSION))
    cmd = read_str(obj, "cmd", "request")
    if cmd not in ENGINE_COMMANDS:
        raise WireError(_("{where}: unknown command {cmd!r}; known commands: {known}", where="request.cmd",
                          cmd=cmd[:40], known=", ".join(ENGINE_COMMANDS)))
    request_id = obj.get("id")
    if request_id is not None and (isinstance(request_id, bool) or not isinstance(request_id, str | int)):
        raise WireError(_("{where}: expected a string or an integer, got {value!r}", where="request.id",
                          value=request_id))
    if GM_CODE_KEY in obj:
        code = read_str(obj, GM_CODE_KEY, "request")
        if len(code) > MAX_GM_CODE_CHARS:
            raise WireError(_("{where}: {n} characters is too long for a GM code",
                              where=field_path("request", GM_CODE_KEY), n=len(code)))
    _check_command(cmd, obj)
    args = {k: v for k, v in obj.items() if k not in ("cmd", "id", "version")}
    return EngineRequest(cmd, args, request_id)


def encode_request(cmd: str, request_id: str | int | None = None, **fields: Any) -> bytes:
    """A command as the engine expects it (clients and tests)."""
    obj: dict[str, Any] = {"cmd": cmd, "version": PROTOCOL_VERSION, **fields}
    if request_id is not None:
        obj["id"] = request_id
    return dump_json(obj)


@dataclass(frozen=True, slots=True)
class EngineReply:
    """The answer to one command: ``ok`` or an ``error`` text, the last published ``seq``, extra fields."""

    ok: bool
    error: str | None
    cmd: str | None
    id: str | int | None
    seq: int
    engine_run: str
    fields: dict[str, Any]


def encode_reply(ok: bool, error: str | None, *, cmd: str | None, request_id: str | int | None, seq: int,
                 engine_run: str, sent_at: float, **fields: Any) -> bytes:
    obj: dict[str, Any] = {
        "topic": TOPIC_ENGINE_REPLY.decode(), "version": PROTOCOL_VERSION, "seq": seq, "sent_at": sent_at,
        "engine_run": engine_run, "cmd": cmd, "id": request_id, "ok": ok, "error": error, **fields,
    }
    return dump_json(obj)


def _check_snapshot(obj: Mapping[str, Any], where: str) -> None:
    """What a tablet builds on: the whole game, its revision and the seq it is current to."""
    read_int(obj, "last_seq", where)
    read_int(obj, "revision", where)
    if obj.get("game_id") is not None:
        read_int(obj, "game_id", where)
    check_object(require(obj, "scenario", where), f"{where}.scenario")
    check_game(require(obj, "game", where), f"{where}.game")
    check_object(require(obj, "table", where), f"{where}.table")


def parse_reply(payload: bytes | str) -> EngineReply:
    """Validate the engine's reply (clients); a snapshot's game is checked field by field."""
    envelope, obj = parse_envelope(payload)
    where = TOPIC_ENGINE_REPLY.decode()
    if envelope.topic != where:
        raise WireError(_("{where}: expected {expected!r}, got {topic!r}", where="message.topic", expected=where,
                          topic=envelope.topic))
    ok = require(obj, "ok", where)
    if not isinstance(ok, bool):
        raise WireError(_("{where}: expected true or false, got {value!r}", where=field_path(where, "ok"), value=ok))
    error = obj.get("error")
    if error is not None and not isinstance(error, str):
        raise WireError(_("{where}: expected a string or null, got {value!r}", where=field_path(where, "error"),
                          value=error))
    if not ok and not error:
        raise WireError(_("{where}: a failed reply must say why", where=field_path(where, "error")))
    cmd = obj.get("cmd")
    if ok and cmd == "snapshot":
        _check_snapshot(obj, where)
    fields = {k: v for k, v in obj.items() if k not in _ENVELOPE_KEYS}
    return EngineReply(ok, error, cmd if isinstance(cmd, str) else None, obj.get("id"), envelope.seq,
                       read_str(obj, "engine_run", where), fields)
