"""Bad tablet and camera messages are counted, a sample logged, and summarised every few seconds."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest
import zmq

from engine.service.log_limit import LimitedLog, clip
from tests.service.conftest import close_rig, make_rig

BAD = 3000
BATCH = 100
# Bounds on waiting for the engine, not its speed: on a loaded 2-core machine (CI beside a CPU-burning process and a
# headless demo) one reply to a batch of this flood once took over 5 s.
REPLY_S = 30.0
SUMMARY_S = 30.0


def test_limited_log_logs_a_burst_then_a_summary(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    limited = LimitedLog(logging.getLogger("test.limited"), "refused", burst=2, every_s=5.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="test.limited"):
        for i in range(10):
            limited(f"bad {i} " + "x" * 10_000)
        now[0] = 5.0
        limited.flush()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3 and lines[0].startswith("refused: bad 0") and lines[1].startswith("refused: bad 1")
    assert "8 more in the last 5 s (10 in all); the last: bad 9" in lines[2]
    assert max(len(line) for line in lines) < 600
    assert clip("abc", 2) == "ab… (1 more characters)"


def test_a_flood_of_bad_commands_and_camera_messages_costs_a_few_log_lines(
        context: zmq.Context[zmq.Socket[bytes]], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="engine")
    rig = make_rig(context, str(tmp_path / "journal.sqlite"), log_summary_s=0.5)
    try:
        huge = json.dumps({"cmd": "snapshot", "version": "x" * 60_000}).encode()
        camera = rig.cameras[0].publisher._pub
        for start in range(0, BAD, BATCH):
            for i in range(start, start + BATCH):
                rig.tablet.send_raw([huge if i % 50 == 0 else b"{not json"])
                camera.send_multipart([b"tracks", b"{not json" + b"y" * (60_000 if i % 50 == 0 else 0)])
            for _ in range(BATCH):
                reply = rig.tablet.wait_reply(None, REPLY_S)
                assert not reply.ok and len(reply.error or "") <= 1100
        deadline = time.monotonic() + SUMMARY_S
        while not any(f"({BAD} in all)" in r.getMessage() for r in list(caplog.records)):
            assert time.monotonic() < deadline, "no summary of the refused commands"
            rig.tablet.request("snapshot")  # the engine keeps answering meanwhile
        while not any("dropped a malformed message" in r.getMessage() and "more in the last" in r.getMessage()
                      for r in list(caplog.records)):
            assert time.monotonic() < deadline, "no summary of the malformed camera messages"
            rig.tablet.request("snapshot")
        lines = [r.getMessage() for r in list(caplog.records) if r.name.startswith("engine.service")]
        assert len(lines) < 100, f"{len(lines)} log lines for {2 * BAD} bad messages"
        assert max(len(line) for line in lines) < 1000
    finally:
        close_rig(rig)
