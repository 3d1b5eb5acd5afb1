"""Commands answered once: the retry contract of the command socket.

A client that gets no reply in time sends the same request again. A request that changes the game (the
``changes`` column of :mod:`engine.service.roles`) and carries an ``id`` this client's earlier request of the
same content carried is not carried out again: the engine answers it with the first answer (``ok`` or the
refusal, with the same fields). The client is known by its CURVE key when the table has keys (so a tablet
that reconnects, or whose app starts again, is the same client), else by its ZeroMQ routing identity (the
tablets' client sets a stable one, so it survives reconnecting to a restarted engine). The same ``id`` with
another content is a new command.

The answers are kept beside the game in the journal file (a table of their own), so a request resent to an
engine that restarted meanwhile is answered too. A request that changed the game is marked as done in the very
transaction that writes its action or undo (:meth:`AnswerBook.done_row`, carried by the journal's next write); the
answer itself is written right after. An engine that stopped between the two answers that request ``ok`` with no
fields of its own, and never carries it out again. Memory is
bounded: the newest :data:`PER_CLIENT` answers of each of the newest :data:`CLIENTS` clients.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.wire import EngineRequest

log = logging.getLogger(__name__)

PER_CLIENT = 32  # answers kept for each client: a client retries its last few requests, never older ones
CLIENTS = 64  # clients remembered (a table has a handful of tablets; the oldest client is forgotten first)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS service_answers (
    client TEXT NOT NULL,
    request_id TEXT NOT NULL,
    digest TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (client, request_id)
)
"""


@dataclass(frozen=True)
class Answer:
    """A reply as first given: ``ok``, the refusal's ``error``, and the command's own reply fields."""

    ok: bool
    error: str | None
    fields: dict[str, Any]


def client_of(user: str | None, identity: bytes) -> str:
    """Who sent a command: its CURVE key (the ZAP User-Id) when there is one, else its routing identity."""
    return f"key:{user}" if user is not None else f"route:{identity.hex()}"


def request_digest(request: EngineRequest) -> str:
    """The request's content (command and fields, without ``id``, version or GM code), as a short hash."""
    text = json.dumps({"cmd": request.cmd, **request.args}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class AnswerBook:
    """The answers given to the newest requests that changed the game, per client; kept in ``path`` when given."""

    def __init__(self, path: str | Path | None) -> None:
        self._clients: OrderedDict[str, OrderedDict[str, tuple[str, Answer]]] = OrderedDict()
        self._conn: sqlite3.Connection | None = None
        if path is None or str(path) == ":memory:":
            return
        self._conn = sqlite3.connect(str(path), isolation_level=None, timeout=10.0)
        self._conn.execute("PRAGMA synchronous = FULL")
        self._conn.execute(_SCHEMA)
        for client, request_id, digest, text in self._conn.execute(
                "SELECT client, request_id, digest, answer FROM service_answers ORDER BY rowid"):
            try:
                raw = json.loads(text)
                answer = Answer(bool(raw["ok"]), raw.get("error"), dict(raw.get("fields") or {}))
            except (ValueError, KeyError, TypeError):
                continue  # an unreadable row answers nothing: the request is carried out
            self._keep(client, request_id, digest, answer)

    @staticmethod
    def _key(request_id: str | int) -> str:
        return json.dumps(request_id)  # 1 and "1" are different ids

    def recall(self, client: str, request: EngineRequest) -> Answer | None:
        """The first answer to this request (same client, ``id`` and content), or None: carry it out."""
        if request.id is None:
            return None
        answers = self._clients.get(client)
        kept = None if answers is None else answers.get(self._key(request.id))
        if kept is None or kept[0] != request_digest(request):
            return None
        self._clients.move_to_end(client)
        return kept[1]

    def remember(self, client: str, request: EngineRequest, answer: Answer) -> None:
        if request.id is None:
            return
        request_id, digest = self._key(request.id), request_digest(request)
        forgotten = self._keep(client, request_id, digest, answer)
        if self._conn is None:
            return
        text = json.dumps({"ok": answer.ok, "error": answer.error, "fields": answer.fields}, default=str)
        try:
            with self._conn:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.execute("INSERT OR REPLACE INTO service_answers (client, request_id, digest, answer) "
                                   "VALUES (?, ?, ?, ?)", (client, request_id, digest, text))
                for gone_client, gone_id in forgotten:
                    self._conn.execute("DELETE FROM service_answers WHERE client = ? AND request_id = ?",
                                       (gone_client, gone_id))
        except sqlite3.Error as exc:  # the answer was given; only a retry after a restart would miss it
            log.warning("could not keep the answer to request %s in the journal file: %s", request_id, exc)

    def done_row(self, client: str, request: EngineRequest) -> tuple[str, tuple[object, ...]] | None:
        """The statement marking ``request`` as carried out (answer ``ok``, no fields), to be written with the change
        it makes; None when the answers are not kept in a file or the request has no ``id``."""
        if self._conn is None or request.id is None:
            return None
        text = json.dumps({"ok": True, "error": None, "fields": {}})
        return ("INSERT OR REPLACE INTO service_answers (client, request_id, digest, answer) VALUES (?, ?, ?, ?)",
                (client, self._key(request.id), request_digest(request), text))

    def _keep(self, client: str, request_id: str, digest: str, answer: Answer) -> list[tuple[str, str]]:
        """Hold an answer in memory; returns the (client, id) pairs forgotten to stay within the bounds."""
        answers = self._clients.setdefault(client, OrderedDict())
        self._clients.move_to_end(client)
        answers[request_id] = (digest, answer)
        answers.move_to_end(request_id)
        forgotten = []
        while len(answers) > PER_CLIENT:
            forgotten.append((client, answers.popitem(last=False)[0]))
        while len(self._clients) > CLIENTS:
            gone, old = self._clients.popitem(last=False)
            forgotten.extend((gone, rid) for rid in old)
        return forgotten

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
