"""``hexa keys``: make the CURVE key pairs for ``hexa engine --lan`` and its tablets."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import zmq.auth

from engine.service.security import AUTHORIZED_DIR, CLIENTS_DIR, ENGINE_CLIENT, SERVER_NAME


def make_keys(keys_dir: Path, clients: list[str], force: bool = False) -> list[Path]:
    """Write the server pair, one pair per client, and the allowed public keys; returns the files made."""
    server = keys_dir / f"{SERVER_NAME}.key_secret"
    if server.exists() and not force:
        raise FileExistsError(f"{server} exists: the tablets already hold keys for it. Fix: pass --force to "
                              "replace every key (tablets then need the new ones), or --add-client NAME")
    made: list[Path] = []
    for folder in (keys_dir, keys_dir / CLIENTS_DIR, keys_dir / AUTHORIZED_DIR):
        folder.mkdir(parents=True, exist_ok=True)
    public, secret = zmq.auth.create_certificates(str(keys_dir), SERVER_NAME)
    made += [Path(public), Path(secret)]
    made += add_clients(keys_dir, [*clients, *([] if ENGINE_CLIENT in clients else [ENGINE_CLIENT])])
    return made


def add_clients(keys_dir: Path, clients: list[str]) -> list[Path]:
    made: list[Path] = []
    for name in clients:
        public, secret = zmq.auth.create_certificates(str(keys_dir / CLIENTS_DIR), name)
        allowed = keys_dir / AUTHORIZED_DIR / f"{name}.key"
        shutil.copyfile(public, allowed)
        Path(secret).chmod(0o600)
        made += [Path(public), Path(secret), allowed]
    return made


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="hexa keys", description="Make CURVE keys for 'hexa engine --lan --keys DIR'.")
    p.add_argument("--dir", type=Path, required=True, help="folder to write the keys to")
    p.add_argument("--client", action="append", default=[], help="a client (tablet) name; repeat (default: tablet)")
    p.add_argument("--add-client", action="append", default=[], help="add a client to existing keys")
    p.add_argument("--force", action="store_true", help="replace existing keys")
    args = p.parse_args(argv)
    try:
        if args.add_client:
            if not (args.dir / f"{SERVER_NAME}.key").exists():
                print(f"hexa keys: {args.dir} holds no server key yet. Fix: run 'hexa keys --dir {args.dir}' first",
                      file=sys.stderr)
                return 2
            made = add_clients(args.dir, args.add_client)
        else:
            made = make_keys(args.dir, args.client or ["tablet"], args.force)
    except (FileExistsError, OSError) as exc:
        print(f"hexa keys: {exc}", file=sys.stderr)
        return 2
    for path in made:
        print(f"wrote {path}")
    print(f"engine: hexa engine --lan --keys {args.dir}")
    print(f"each tablet needs {args.dir / CLIENTS_DIR}/NAME.key_secret and {args.dir / SERVER_NAME}.key "
          "(keep the .key_secret files private)")
    return 0
