"""Only loopback may be served without CURVE: the check the engine and the camera service share."""

from __future__ import annotations

import pytest

from engine.service.security import OpenBindError, is_loopback, refuse_open_bind


@pytest.mark.parametrize("endpoint", ["tcp://127.0.0.1:5560", "tcp://127.0.0.1:*", "tcp://127.1.2.3:5",
                                      "tcp://localhost:5560", "tcp://[::1]:5560", "ipc:///tmp/engine", "inproc://x"])
def test_loopback_endpoints(endpoint: str) -> None:
    assert is_loopback(endpoint)
    refuse_open_bind(endpoint, "--pub", secured=False)


@pytest.mark.parametrize("endpoint", ["tcp://0.0.0.0:5560", "tcp://*:5560", "tcp://192.168.1.20:5560",
                                      "tcp://eth0:5560", "tcp://[::]:5560", "tcp://127.0.0.1.example.org:5560",
                                      "udp://127.0.0.1:5560", "pgm://eth0;239.192.1.1:5555",
                                      "127.0.0.1:5560"])
def test_anything_else_needs_curve(endpoint: str) -> None:
    assert not is_loopback(endpoint)
    with pytest.raises(OpenBindError, match=r"--commands .*needs CURVE authentication.*hexa keys --dir KEYS"):
        refuse_open_bind(endpoint, "--commands", secured=False)
    refuse_open_bind(endpoint, "--commands", secured=True)
