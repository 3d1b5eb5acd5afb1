"""CURVE for ``--lan``: the engine's key pair, the tablets' allowed public keys, and who was refused.

Key files come from ``hexa keys --dir DIR`` (:mod:`engine.service.keys`): ``DIR/server.key`` and
``DIR/server.key_secret`` for the engine, ``DIR/authorized/*.key`` for the allowed clients, and one
``DIR/clients/NAME.key_secret`` per tablet. The ZAP handler (pyzmq's ThreadAuthenticator) lets only
those client keys in; a plain or unknown client completes no handshake and receives nothing. A
socket monitor logs every refused handshake.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from dataclasses import dataclass
from pathlib import Path

import zmq
import zmq.auth
from zmq.auth.thread import ThreadAuthenticator
from zmq.utils.monitor import recv_monitor_message

from engine.i18n import gettext_for

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

SERVER_NAME = "server"
AUTHORIZED_DIR = "authorized"
CLIENTS_DIR = "clients"
REFUSED_HANDSHAKES = (zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_FAILED_AUTH)


REFUSAL_LOG_EVERY_S = 10.0  # a refused peer retries ten times a second: log the first, then a count now and then
ENGINE_CLIENT = "engine"  # the engine's own client key pair, for subscribing to CURVE camera services


class KeyFileError(ValueError):
    """Key files missing or unreadable; the text says which and how to make them."""


class OpenBindError(ValueError):
    """A socket would listen beyond this computer without CURVE: anyone on the network could use it."""


def is_loopback(endpoint: str) -> bool:
    """True when only this computer can reach ``endpoint``: tcp on 127.x, ::1 or localhost, ipc, inproc."""
    transport, sep, address = endpoint.partition("://")
    if not sep or transport not in ("tcp", "ipc", "inproc"):
        return False
    if transport != "tcp":
        return True
    host, colon, _port = address.rpartition(":")
    host = host if colon else address
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # an interface name, a wildcard or a host name: may face the network
        return False


def refuse_open_bind(endpoint: str, option: str, secured: bool) -> None:
    """Raise :class:`OpenBindError` unless ``endpoint`` is loopback or the socket is a CURVE server."""
    if not secured and not is_loopback(endpoint):
        raise OpenBindError(
            f"{option} {endpoint}: serving the LAN needs CURVE authentication, or anyone on the network could "
            "connect. Fix: make keys with 'hexa keys --dir KEYS' and give the engine and its camera services "
            "'--keys KEYS', or bind tcp://127.0.0.1:PORT to stay on this computer.")


@dataclass(frozen=True)
class ClientKeys:
    """What a tablet (or test) needs to connect to a CURVE engine."""

    public: bytes
    secret: bytes
    server_public: bytes

    def apply(self, socket: zmq.Socket[bytes]) -> None:
        socket.curve_publickey = self.public
        socket.curve_secretkey = self.secret
        socket.curve_serverkey = self.server_public


def _load(path: Path, secret: bool) -> tuple[bytes, bytes | None]:
    if not path.exists():
        raise KeyFileError(_("{path}: no such key file. Fix: run 'hexa keys --dir {dir}' to make the keys", path=path,
                             dir=path.parent))
    try:
        public, secret_key = zmq.auth.load_certificate(str(path))
    except (OSError, ValueError) as exc:
        raise KeyFileError(_("{path}: not a readable key file ({error}). Fix: make new keys with 'hexa keys'",
                             path=path, error=exc)) from None
    if secret and secret_key is None:
        raise KeyFileError(_("{path}: holds no secret key. Fix: point at the .key_secret file made by 'hexa keys'",
                             path=path))
    return public, secret_key


def load_client_keys(keys_dir: str | Path, name: str = "tablet") -> ClientKeys:
    keys = Path(keys_dir)
    public, secret = _load(keys / CLIENTS_DIR / f"{name}.key_secret", secret=True)
    server_public, _ = _load(keys / f"{SERVER_NAME}.key", secret=False)
    assert secret is not None
    return ClientKeys(public, secret, server_public)


class _AllowedKeys:
    """The ZAP check: a client key of ``authorized/`` that is not one of the ``refused`` (the engine's own)."""

    def __init__(self, authorized: Path, refused: tuple[str, ...]) -> None:
        self.allowed = set(zmq.auth.load_certificates(str(authorized)))
        self.refused: dict[bytes, str] = {}
        for name in refused:
            path = authorized / f"{name}.key"
            if path.is_file():
                key = zmq.auth.load_certificate(str(path))[0]
                self.refused[key] = name
                self.allowed.discard(key)
        self.told = False

    def callback(self, domain: str, key: bytes) -> bool:
        name = self.refused.get(key)
        if name is not None and not self.told:  # once: the client retries ten times a second
            self.told = True
            log.warning("refused a client holding the key %s/%s.key_secret: that key is the engine's own, not a "
                        "tablet's. Fix: give each tablet its own key with 'hexa keys --dir KEYS --add-client NAME' "
                        "and start its app with --client NAME", CLIENTS_DIR, name)
        return key in self.allowed


class CurveServer:
    """Runs the ZAP authenticator and makes sockets CURVE servers; logs refused handshakes.

    ``refused``: client names whose allowed keys this server turns away all the same (the engine refuses its own
    client key, which its camera services accept, so nobody holding it passes for a tablet).
    """

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]], keys_dir: str | Path,
                 refused: tuple[str, ...] = ()) -> None:
        keys = Path(keys_dir)
        public, secret = _load(keys / f"{SERVER_NAME}.key_secret", secret=True)
        authorized = keys / AUTHORIZED_DIR
        if not authorized.is_dir() or not any(authorized.glob("*.key")):
            raise KeyFileError(_("{folder}: no allowed client keys. Fix: run 'hexa keys --dir {keys}'",
                                 folder=authorized, keys=keys))
        assert secret is not None
        self.public, self.secret = public, secret
        self.auth = ThreadAuthenticator(context, log=logging.getLogger(f"{__name__}.zap"))
        self.auth.start()
        self.auth.configure_curve_callback(domain="*", credentials_provider=_AllowedKeys(authorized, refused))
        self._monitors: list[tuple[str, zmq.Socket[bytes]]] = []
        self.refused = 0  # handshakes refused so far, on every socket
        self._unlogged: dict[str, int] = {}
        self._logged_at: dict[str, float] = {}
        log.info("CURVE on: %d allowed client key(s) in %s", len(list(authorized.glob("*.key"))), authorized)

    def secure(self, socket: zmq.Socket[bytes], name: str) -> zmq.Socket[bytes]:
        """Make ``socket`` a CURVE server (call before bind); returns a monitor socket to poll."""
        socket.curve_secretkey = self.secret
        socket.curve_publickey = self.public
        socket.curve_server = True
        monitor = socket.get_monitor_socket(REFUSED_HANDSHAKES)
        self._monitors.append((name, monitor))
        return monitor

    def log_refusals(self, monitor: zmq.Socket[bytes]) -> int:
        """Read the refused handshakes waiting on a monitor socket and log them (the first one, then at most
        one line per socket every :data:`REFUSAL_LOG_EVERY_S` with the count); returns how many."""
        name = next((n for n, m in self._monitors if m is monitor), "socket")
        count = 0
        while monitor.poll(0, zmq.POLLIN):
            event = recv_monitor_message(monitor)
            count += 1
            self._unlogged[name] = self._unlogged.get(name, 0) + 1
            now = time.monotonic()
            if now - self._logged_at.get(name, -REFUSAL_LOG_EVERY_S) >= REFUSAL_LOG_EVERY_S:
                log.warning("%s: refused a client without valid CURVE keys (%s, on %s)%s", name,
                            zmq.Event(event["event"]).name, event.get("endpoint", b"?"),
                            f"; {self._unlogged[name]} refused since the last report" if name in self._logged_at
                            else "")
                self._logged_at[name], self._unlogged[name] = now, 0
        self.refused += count
        return count

    def close(self) -> None:
        for _socket, monitor in self._monitors:
            monitor.close(linger=0)
        self.auth.stop()
