"""Who the game master is: a tablet named by its CURVE key, or any tablet that gives the GM code.

Two ways, so both a LAN table and a single computer work:

- ``hexa engine --keys KEYS --gm NAME``: the tablet holding ``KEYS/clients/NAME.key_secret`` is the GM.
  The engine knows it by the public key its CURVE handshake proved (``KEYS/authorized/NAME.key``), read
  from each command's ZeroMQ ``User-Id``; nothing in the command itself can claim it.
- the GM code: a random code the engine makes at start and prints on its console (never sent on the
  wire by the engine). A command carrying ``"gm_code": CODE`` comes from the GM. This serves loopback
  tablets (no CURVE) and a GM tablet without its own key; whoever sees the engine's console is trusted.

Codes are compared in constant time; a wrong code is simply not the GM (the command is refused with
the same words as one without a code).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path

import zmq
import zmq.auth

from engine.i18n import gettext_for
from engine.service.security import AUTHORIZED_DIR, KeyFileError

_ = gettext_for(__name__)

GM_CODE_BYTES = 9  # 12 url-safe characters, 72 bits


def new_gm_code() -> str:
    return secrets.token_urlsafe(GM_CODE_BYTES)


def gm_key_id(keys_dir: Path, name: str) -> str:
    """The ZeroMQ User-Id of the tablet ``name`` (the z85 form of its allowed public key)."""
    path = keys_dir / AUTHORIZED_DIR / f"{name}.key"
    if not path.is_file():
        known = sorted(p.stem for p in (keys_dir / AUTHORIZED_DIR).glob("*.key"))
        raise KeyFileError(_("--gm {name}: no allowed tablet key {path}. Fix: name one of {known}, or add it with "
                             "'hexa keys --dir {dir} --add-client {name}'", name=name, path=path,
                             known=", ".join(known) or _("none"), dir=keys_dir))
    public, _secret = zmq.auth.load_certificate(str(path))  # already z85 text, as ZAP names the peer
    return public.decode("ascii")


@dataclass(frozen=True)
class GameMaster:
    """How the engine recognises its game master's commands."""

    code: str
    key_id: str | None = None  # the GM tablet's CURVE User-Id, when one is named

    def is_gm(self, code: str | None, user_id: str | None) -> bool:
        if code is not None and hmac.compare_digest(code.encode(), self.code.encode()):
            return True
        return self.key_id is not None and user_id is not None and hmac.compare_digest(user_id, self.key_id)


def user_id(frame: zmq.Frame) -> str | None:
    """The ZAP User-Id of the peer that sent ``frame`` (its CURVE key), or None without CURVE."""
    try:
        value = frame.get("User-Id")
    except zmq.ZMQError:
        return None
    return value if isinstance(value, str) and value else None
