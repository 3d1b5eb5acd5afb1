"""docs/wire-protocol.md, run against a real engine: the doc's examples are what the engine does.

The doc marks its examples with the fence info string:

``json request``    one command, sent as one frame on a DEALER (in document order, to one engine);
``json frames``     a list of frames (strings) sent as they are;
``json reply``      the reply to the request or frames just before it;
``json published``  a message the engine publishes while the examples run;
``json message``    a complete message of another service, decoded by :mod:`engine.wire`.

A documented reply or published message is a shortened copy: every key it shows must be in the real
one with the same value (lists: the first entries), except the values that change every run
(:data:`VOLATILE`), which need only the same JSON type, and the lists the doc shows a selection of
(:data:`SELECTIONS`: the bundled scenarios, which are whatever the rule sets found bundle), whose
entries must be in the real list, matched by ``name``, in the same order.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq

from engine import wire
from engine.service.server import EngineServer, ServerConfig
from tests.doc_blocks import DOCS, Block, fenced_blocks
from tests.service.conftest import ANY_PORT, serve_engine

DOC = DOCS / "wire-protocol.md"
VOLATILE = frozenset({"seq", "sent_at", "last_seq", "revision", "engine_run", "uptime_s", "dropped"})
SELECTIONS = frozenset({"scenarios"})  # read from the rule-set registry: the doc names some, in order
KINDS = ("json request", "json frames", "json reply", "json published", "json message")
WAIT_S = 5.0


def _json(block: Block) -> Any:
    try:
        return json.loads(block.text)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"{DOC.name} {block.where}: the example is not valid JSON ({exc})") from None


def _same_type(doc: Any, real: Any) -> bool:
    if isinstance(doc, bool) or isinstance(real, bool):
        return isinstance(doc, bool) and isinstance(real, bool)
    if isinstance(doc, int | float):
        return isinstance(real, int | float)
    return type(doc) is type(real)


def mismatches(doc: Any, real: Any, path: str = "", volatile: bool = False) -> list[str]:
    """Where ``real`` differs from the documented shortened copy ``doc`` (empty: it matches)."""
    if isinstance(doc, dict):
        if not isinstance(real, dict):
            return [f"{path or 'message'}: documented an object, got {real!r}"]
        out = []
        for key, value in doc.items():
            if key not in real:
                out.append(f"{path}.{key}: documented, but missing")
            elif key in SELECTIONS and isinstance(value, list):
                out += selection_mismatches(value, real[key], f"{path}.{key}")
            else:
                out += mismatches(value, real[key], f"{path}.{key}", key in VOLATILE)
        return out
    if isinstance(doc, list):
        if not isinstance(real, list) or len(real) < len(doc):
            return [f"{path}: documented {doc!r}, got {real!r}"]
        return [m for i, item in enumerate(doc) for m in mismatches(item, real[i], f"{path}[{i}]", volatile)]
    if volatile:
        return [] if _same_type(doc, real) else [f"{path}: documented a {type(doc).__name__}, got {real!r}"]
    return [] if doc == real and _same_type(doc, real) else [f"{path}: documented {doc!r}, got {real!r}"]


def selection_mismatches(doc: list[Any], real: Any, path: str) -> list[str]:
    """Each documented entry matches the real entry of its ``name``, the names in the real list's order."""
    if not isinstance(real, list):
        return [f"{path}: documented a list, got {real!r}"]
    by_name = {entry.get("name"): (i, entry) for i, entry in enumerate(real) if isinstance(entry, dict)}
    out: list[str] = []
    last = -1
    for item in doc:
        name = item.get("name") if isinstance(item, dict) else None
        if name not in by_name:
            out.append(f"{path}: documented {name!r}, which is not among {sorted(n for n in by_name if n)}")
            continue
        i, entry = by_name[name]
        if i < last:
            out.append(f"{path}: documented {name!r} out of the real order")
        last = i
        out += mismatches(item, entry, f"{path}[{name}]")
    return out


class Listener:
    """A SUB socket on every engine topic, keeping what arrives."""

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]], endpoint: str) -> None:
        self.sub = context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.connect(endpoint)
        self.heard: list[tuple[str, dict[str, Any]]] = []

    def drain(self, timeout_s: float = 0.0) -> int:
        got = 0
        timeout_ms = int(timeout_s * 1000)
        while self.sub.poll(timeout_ms if got == 0 else 0, zmq.POLLIN):
            topic, payload = self.sub.recv_multipart()
            self.heard.append((topic.decode(), json.loads(payload)))
            got += 1
        return got


@pytest.fixture
def engine(context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path) -> Iterator[EngineServer]:
    """The engine as `hexa engine --scenario tutorial` runs it: no camera at all (its GM code the doc's)."""
    config = ServerConfig(pub=ANY_PORT, commands=ANY_PORT, gm_code="doc-gm-code")
    _session, server, thread = serve_engine(context, str(tmp_path / "journal.sqlite"), "tutorial", config)
    assert not server.feeds
    yield server
    server.stop()
    thread.join(5.0)
    assert not thread.is_alive(), "the engine loop did not stop"


def _ask(dealer: zmq.Socket[bytes], frames: list[bytes], block: Block) -> dict[str, Any]:
    dealer.send_multipart(frames)
    assert dealer.poll(int(WAIT_S * 1000), zmq.POLLIN), f"{DOC.name} {block.where}: no reply within {WAIT_S} s"
    reply = dealer.recv_multipart()
    if frames[0] == b"":
        assert reply[0] == b"" and len(reply) == 2, f"{block.where}: the delimiter frame was not mirrored"
    else:
        assert len(reply) == 1, f"{block.where}: a reply without a delimiter is one frame, got {len(reply)}"
    wire.parse_reply(reply[-1])  # a valid engine.reply, whatever the doc says
    parsed: dict[str, Any] = json.loads(reply[-1])
    return parsed


def test_the_doc_marks_its_examples() -> None:
    blocks = fenced_blocks(DOC, "json")
    assert {b.info for b in blocks} <= set(KINDS), {b.info for b in blocks} - set(KINDS)
    kinds = [b.info for b in blocks]
    assert kinds.count("json request") >= 12 and "json published" in kinds and "json message" in kinds
    for before, block in itertools.pairwise(blocks):
        if before.info in ("json request", "json frames"):
            assert block.info == "json reply", f"{DOC.name} {before.where}: a request needs its reply after it"


def test_the_documented_scenarios_are_a_selection_of_what_the_registry_bundles() -> None:
    """A rule set bundling one more scenario (a plug-in, a new built-in) leaves the doc right; a documented
    scenario no rule set bundles, or the documented ones out of order, is caught."""
    from engine.scenario import bundled_scenarios

    reply = next(json.loads(b.text) for b in fenced_blocks(DOC, "json")
                 if b.info == "json reply" and json.loads(b.text).get("cmd") == "scenarios")
    documented = [entry["name"] for entry in reply["scenarios"]]
    bundled = sorted(bundled_scenarios())
    assert documented == [name for name in bundled if name in documented], (documented, bundled)
    real = {"scenarios": [{"name": "aardvark-first"}, *({"name": n} for n in documented)]}
    assert mismatches({"scenarios": [{"name": n} for n in documented]}, real) == []
    assert mismatches({"scenarios": [{"name": "no-such-scenario"}]}, real)
    assert mismatches({"scenarios": [{"name": n} for n in reversed(documented)]}, real)


@pytest.fixture
def listener(context: zmq.Context[zmq.Socket[bytes]], engine: EngineServer) -> Iterator[Listener]:
    heard = Listener(context, engine.pub_endpoint)
    yield heard
    heard.sub.close(linger=0)


@pytest.fixture
def dealer(context: zmq.Context[zmq.Socket[bytes]], engine: EngineServer) -> Iterator[zmq.Socket[bytes]]:
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(engine.commands_endpoint)
    yield socket
    socket.close(linger=0)


def test_every_documented_request_gets_the_documented_reply(listener: Listener,
                                                            dealer: zmq.Socket[bytes]) -> None:
    assert listener.drain(WAIT_S) > 0, "nothing published within the heartbeat period"
    blocks = fenced_blocks(DOC, "json")
    published: list[Block] = []
    sent = 0
    for i, block in enumerate(blocks):
        if block.info == "json published":
            published.append(block)
        elif block.info == "json message":
            doc = _json(block)
            wire.decode([doc["topic"].encode(), block.text.encode()])
        elif block.info in ("json request", "json frames"):
            doc = _json(block)
            if block.info == "json request":
                assert isinstance(doc, dict) and "cmd" in doc, f"{block.where}: a request is an object with cmd"
                frames = [block.text.encode()]
            else:
                frames = [str(f).encode() for f in doc]
            real = _ask(dealer, frames, block)
            expected = _json(blocks[i + 1])
            assert "ok" in expected, f"{DOC.name} {blocks[i + 1].where}: a documented reply shows ok"
            problems = mismatches(expected, real)
            assert not problems, f"{DOC.name} {blocks[i + 1].where}:\n" + "\n".join(problems)
            sent += 1
            listener.drain()
    assert sent >= 12
    # Each published example matches something the engine published (heartbeat and table come every second).
    deadline = time.monotonic() + WAIT_S
    for block in published:
        doc = _json(block)
        while not any(topic == doc["topic"] and not mismatches(doc, real) for topic, real in listener.heard):
            assert time.monotonic() < deadline, (
                f"{DOC.name} {block.where}: no published {doc['topic']} matches; the newest differs in:\n"
                + "\n".join(next((mismatches(doc, r) for t, r in reversed(listener.heard) if t == doc["topic"]),
                                 ["none published"])))
            listener.drain(0.2)
