"""``hexa keys``: make the CURVE key pairs for ``hexa engine --lan`` and its tablets.

Every key is made in a private staging folder and moved into place only once all of them exist, so
a failed run leaves nothing half-made. The keys folder and its subfolders are readable by their
owner only (0700), every ``.key_secret`` file too (0600). Client names are plain names: they
become file names under ``clients/`` and ``authorized/``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import zmq.auth

from engine.i18n import gettext_for
from engine.service.security import AUTHORIZED_DIR, CLIENTS_DIR, ENGINE_CLIENT, SERVER_NAME

CLIENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


_ = gettext_for(__name__)


class KeysError(ValueError):
    """Keys cannot be made as asked (a bad name, keys already there); the text says what to do."""


def client_names(names: list[str], option: str = "--client") -> list[str]:
    """The names in order, each once; raises :class:`KeysError` for a name that is not a plain name."""
    for name in names:
        if not CLIENT_NAME.fullmatch(name):
            raise KeysError(_("{option} {name!r}: a client name is a plain name of letters, digits, '-' and '_' (up "
                              "to 64, no folders), e.g. kitchen-tablet", option=option, name=name))
    return list(dict.fromkeys(names))


def _staging(parent: Path) -> Path:
    """A new private (0700) folder in ``parent``, on the same file system as the keys, so moves are renames."""
    return Path(tempfile.mkdtemp(prefix=".hexa-keys-", dir=parent))


def _pair(folder: Path, name: str) -> tuple[Path, Path]:
    public, secret = (Path(p) for p in zmq.auth.create_certificates(str(folder), name))
    secret.chmod(PRIVATE_FILE)
    return public, secret


def _client(staging: Path, name: str) -> None:
    public, _secret = _pair(staging / CLIENTS_DIR, name)
    shutil.copyfile(public, staging / AUTHORIZED_DIR / f"{name}.key")


def _client_files(keys_dir: Path, name: str) -> list[Path]:
    return [keys_dir / CLIENTS_DIR / f"{name}.key", keys_dir / CLIENTS_DIR / f"{name}.key_secret",
            keys_dir / AUTHORIZED_DIR / f"{name}.key"]


def _new_staging(parent: Path) -> Path:
    staging = _staging(parent)
    for sub in (CLIENTS_DIR, AUTHORIZED_DIR):
        (staging / sub).mkdir(mode=PRIVATE_DIR)
    return staging


def make_keys(keys_dir: Path, clients: list[str], force: bool = False) -> list[Path]:
    """Write the server pair, one pair per client (and the engine's), and the allowed public keys.

    With ``force`` every key is replaced: the old client keys are no longer allowed. Returns the files made.
    """
    names = client_names([*clients, ENGINE_CLIENT])
    if keys_dir.exists() and not keys_dir.is_dir():
        raise KeysError(_("{dir} is a file. Fix: give --dir a folder", dir=keys_dir))
    server = keys_dir / f"{SERVER_NAME}.key_secret"
    if server.exists() and not force:
        raise KeysError(_("{server} exists: the tablets already hold keys for it. Fix: pass --force to replace every "
                          "key (tablets then need the new ones), or --add-client NAME", server=server))
    keys_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = _new_staging(keys_dir.parent)
    try:
        _pair(staging, SERVER_NAME)
        for name in names:
            _client(staging, name)
        if not keys_dir.exists():
            staging.rename(keys_dir)  # the private staging folder becomes the keys folder in one step
        else:
            keys_dir.chmod(PRIVATE_DIR)
            for sub in (CLIENTS_DIR, AUTHORIZED_DIR):  # replaced whole: no stale client stays allowed
                if (keys_dir / sub).exists():
                    (keys_dir / sub).rename(staging / f"old-{sub}")
                (staging / sub).rename(keys_dir / sub)
            for suffix in (".key", ".key_secret"):
                os.replace(staging / f"{SERVER_NAME}{suffix}", keys_dir / f"{SERVER_NAME}{suffix}")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    made = [keys_dir / f"{SERVER_NAME}.key", server]
    for name in names:
        made += _client_files(keys_dir, name)
    return made


def add_clients(keys_dir: Path, clients: list[str], replace: bool = False) -> list[Path]:
    """Add client key pairs to existing keys; an existing client is replaced only with ``replace``."""
    names = client_names(clients, "--add-client")
    if not (keys_dir / f"{SERVER_NAME}.key").exists():
        raise KeysError(_("{dir} holds no server key yet. Fix: run 'hexa keys --dir {dir}' first", dir=keys_dir))
    for name in names:
        if not replace and any(path.exists() for path in _client_files(keys_dir, name)[1:]):
            raise KeysError(_("--add-client {name}: {name} already has a key; a new one would lock that tablet out. "
                              "Fix: choose another name, or pass --replace to give {name} a new key (then copy "
                              "{secret}.key_secret to it)", name=name, secret=keys_dir / CLIENTS_DIR / name))
    tighten(keys_dir)
    staging = _new_staging(keys_dir)
    made: list[Path] = []
    try:
        for name in names:
            _client(staging, name)
        for name in names:
            for final in _client_files(keys_dir, name):
                os.replace(staging / final.parent.name / final.name, final)
                made.append(final)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return made


def tighten(keys_dir: Path) -> None:
    """Make an existing keys folder private: folders 0700, secret key files 0600 (older releases left 0644)."""
    for folder in (keys_dir, keys_dir / CLIENTS_DIR, keys_dir / AUTHORIZED_DIR):
        folder.mkdir(mode=PRIVATE_DIR, exist_ok=True)
        folder.chmod(PRIVATE_DIR)
    for secret in [*keys_dir.glob("*.key_secret"), *(keys_dir / CLIENTS_DIR).glob("*.key_secret")]:
        secret.chmod(PRIVATE_FILE)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="hexa keys", description=_("Make CURVE keys for 'hexa engine --lan --keys DIR'."))
    p.add_argument("--dir", type=Path, required=True, help=_("folder to write the keys to"))
    p.add_argument("--client", action="append", default=[], help=_("a client (tablet) name; repeat (default: tablet)"))
    p.add_argument("--add-client", action="append", default=[], help=_("add a client to existing keys"))
    p.add_argument("--replace", action="store_true", help=_("with --add-client: give an existing client a new key "
                                                            "(that tablet then needs its new .key_secret)"))
    p.add_argument("--force", action="store_true", help=_("replace every existing key"))
    args = p.parse_args(argv)
    try:
        if args.add_client:
            made = add_clients(args.dir, args.add_client, args.replace)
        else:
            made = make_keys(args.dir, args.client or ["tablet"], args.force)
    except (KeysError, OSError) as exc:
        print(_("hexa keys: {error}", error=exc), file=sys.stderr)
        return 2
    for path in made:
        print(_("wrote {path}", path=path))
    print(_("engine: hexa engine --lan --keys {dir}", dir=args.dir))
    print(_("each tablet needs {clients}/NAME.key_secret and {server}.key (keep the .key_secret files private)",
            clients=args.dir / CLIENTS_DIR, server=args.dir / SERVER_NAME))
    return 0
