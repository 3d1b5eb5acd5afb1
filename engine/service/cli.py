"""``hexa engine``: run the rules engine as a service between the cameras and the tablets."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path
from types import FrameType

from engine.errors import EngineError
from engine.journal import DEFAULT_JOURNAL
from engine.service.security import KeyFileError
from engine.service.server import (
    DEFAULT_COMMANDS,
    DEFAULT_PUB,
    LAN_COMMANDS,
    LAN_PUB,
    EngineServer,
    ServerConfig,
    ServiceError,
)
from engine.service.session import open_session

log = logging.getLogger(__name__)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa engine", description=(
        "Listen to the camera services, turn what the players do on the table into game actions, and keep "
        "every tablet in sync. Binds 127.0.0.1 unless --lan."))
    p.add_argument("--scenario", help="scenario .toml file or bundled id (e.g. tutorial); resumes its newest "
                   "unfinished game in the journal unless --new")
    p.add_argument("--journal", default=DEFAULT_JOURNAL, help="game journal file (SQLite), every action saved as "
                   f"it happens (default ./{DEFAULT_JOURNAL}, shared with 'hexa play'); ':memory:' keeps nothing")
    p.add_argument("--game", type=int, help="resume this game id of the journal")
    p.add_argument("--new", action="store_true", help="start a new game even if the journal has an unfinished one")
    p.add_argument("--vision", action="append", default=[], metavar="PUB[,SNAPSHOT]",
                   help="a camera service's PUB endpoint (its snapshot socket defaults to the next port); repeat "
                   "for several cameras, e.g. --vision tcp://127.0.0.1:5555")
    p.add_argument("--pub", help=f"publish endpoint (default {DEFAULT_PUB}; {LAN_PUB} with --lan); any address but "
                   "loopback needs --keys")
    p.add_argument("--commands", help=f"command endpoint (default {DEFAULT_COMMANDS}; {LAN_COMMANDS} with --lan); any "
                   "address but loopback needs --keys")
    p.add_argument("--lan", action="store_true", help="bind to every network interface; requires --keys (CURVE)")
    p.add_argument("--keys", type=Path, help="folder made by 'hexa keys' (turns CURVE authentication on)")
    p.add_argument("--gm", metavar="NAME", help="the tablet whose key (KEYS/clients/NAME.key_secret, made by 'hexa "
                   "keys') makes it the game master; needs --keys. Any tablet may also act as GM with the GM code "
                   "printed at start")
    p.add_argument("--save-dir", type=Path, default=Path.cwd(), help="folder the 'save' command writes records to")
    p.add_argument("--silent-after", type=float, default=3.0, help="seconds without a camera message before the "
                   "camera is reported silent (default 3)")
    p.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    return p


def _vision(values: list[str]) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for value in values:
        pub, _, snap = value.partition(",")
        out.append((pub.strip(), snap.strip() or None))
    return out


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.lan and args.keys is None:
        print("hexa engine: --lan exposes the engine to the network and needs CURVE keys. Fix: run "
              "'hexa keys --dir KEYS' and pass --keys KEYS (give the tablets KEYS/clients/*.key_secret and "
              "KEYS/server.key).", file=sys.stderr)
        return 2
    config = ServerConfig(
        pub=args.pub or (LAN_PUB if args.lan else DEFAULT_PUB),
        commands=args.commands or (LAN_COMMANDS if args.lan else DEFAULT_COMMANDS),
        vision=_vision(args.vision), keys_dir=args.keys, silent_after_s=args.silent_after, gm=args.gm,
    )
    # The sockets are bound before the journal is opened: an engine that cannot start writes no game.
    try:
        server = EngineServer(lambda: open_session(args.journal, args.scenario, args.game, args.new, args.save_dir),
                              config)
    except (ServiceError, KeyFileError, EngineError, ValueError) as exc:
        print(f"hexa engine: {exc}", file=sys.stderr)
        return 2
    session = server.session

    def _stop(signum: int, frame: FrameType | None) -> None:
        server.stop()

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    print(f"engine: game {session.game_id} of {session.scenario.name} ({len(session.game.history)} actions played)")
    print(f"engine: publishing on {server.pub_endpoint}, commands on {server.commands_endpoint}"
          f"{' (CURVE)' if server.curve else ''}", flush=True)
    named = f" and the tablet {args.gm}" if args.gm else ""
    print(f"engine: game master: whoever enters the GM code {server.gm.code}{named} (keep the code to the GM)")
    for feed in server.feeds:
        print(f"engine: camera {feed.index} on {feed.endpoint} (snapshots {feed.snapshot_endpoint})")
    if args.journal == ":memory:":
        print("engine: --journal :memory: — the game is kept in memory only and lost if the engine stops")
    else:
        print(f"engine: journal {args.journal} (every action is saved as it happens)")
    sys.stdout.flush()
    try:
        server.run()
    finally:
        server.close()
        session.close()
        session.journal.close()
    print("engine: stopped")
    return 0
