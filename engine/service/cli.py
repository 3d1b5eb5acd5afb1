"""``hexa engine``: run the rules engine as a service between the cameras and the tablets."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path
from types import FrameType

from engine.errors import EngineError
from engine.i18n import LANGUAGE_NAMES, current_language, gettext_for
from engine.journal import DEFAULT_JOURNAL
from engine.service.dice_answers import CAMERA_MODE, COUNTDOWN_S, TABLET_MODE
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
_ = gettext_for(__name__)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa engine", description=_(
        "Listen to the camera services, turn what the players do on the table into game actions, and keep every "
        "tablet in sync. Binds 127.0.0.1 unless --lan."))
    p.add_argument("--scenario", help=_("scenario .toml file or bundled id (e.g. tutorial); resumes its newest "
                                        "unfinished game in the journal unless --new"))
    p.add_argument("--journal", default=DEFAULT_JOURNAL, help=_(
        "game journal file (SQLite), every action saved as it happens (default ./{name}, shared with 'hexa play'); "
        "':memory:' keeps nothing", name=DEFAULT_JOURNAL))
    p.add_argument("--game", type=int, help=_("resume this game id of the journal"))
    p.add_argument("--new", action="store_true", help=_("start a new game even if the journal has an unfinished one"))
    p.add_argument("--vision", action="append", default=[], metavar="PUB[,SNAPSHOT]",
                   help=_("a camera service's PUB endpoint (its snapshot socket defaults to the next port); repeat "
                          "for several cameras, e.g. --vision tcp://127.0.0.1:5555"))
    p.add_argument("--pub", help=_("publish endpoint (default {default}; {lan} with --lan); any address but loopback "
                                   "needs --keys", default=DEFAULT_PUB, lan=LAN_PUB))
    p.add_argument("--commands", help=_("command endpoint (default {default}; {lan} with --lan); any address but "
                                        "loopback needs --keys", default=DEFAULT_COMMANDS, lan=LAN_COMMANDS))
    p.add_argument("--lan", action="store_true", help=_("bind to every network interface; requires --keys (CURVE)"))
    p.add_argument("--keys", type=Path, help=_("folder made by 'hexa keys' (turns CURVE authentication on)"))
    p.add_argument("--gm", metavar="NAME", help=_(
        "the tablet whose key (KEYS/clients/NAME.key_secret, made by 'hexa keys') makes it the game master; needs "
        "--keys. Any tablet may also act as GM with the GM code printed at start. With a GM named, the prompts the "
        "rules leave to the GM take the GM's answer only; without, the table decides them"))
    p.add_argument("--save-dir", type=Path, default=Path.cwd(), help=_("folder the 'save' command writes records to"))
    p.add_argument("--silent-after", type=float, default=3.0, help=_(
        "seconds without a camera message before the camera is reported silent (default 3)"))
    p.add_argument("--dice", choices=(CAMERA_MODE, TABLET_MODE), default=CAMERA_MODE, help=_(
        "where the dice come from by default: 'camera' (the dice the camera reads in the tray answer roll prompts "
        "after a short countdown, unless a player taps \"that's wrong\"; default: with no tray in view nothing is "
        "read) or 'tablet' (the players enter the faces). The tablets may switch it; entering the faces and the "
        "app's virtual roll always work"))
    p.add_argument("--dice-countdown", type=float, default=COUNTDOWN_S, metavar="SECONDS", help=_(
        "how long the tablets show the dice read before they are taken (default {default:g})", default=COUNTDOWN_S))
    p.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    return p


def _vision(values: list[str]) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for value in values:
        pub, _comma, snap = value.partition(",")
        out.append((pub.strip(), snap.strip() or None))
    return out


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.lan and args.keys is None:
        print(_("hexa engine: --lan exposes the engine to the network and needs CURVE keys. Fix: run 'hexa keys --dir "
                "KEYS' and pass --keys KEYS (give the tablets KEYS/clients/*.key_secret and KEYS/server.key)."),
              file=sys.stderr)
        return 2
    config = ServerConfig(
        pub=args.pub or (LAN_PUB if args.lan else DEFAULT_PUB),
        commands=args.commands or (LAN_COMMANDS if args.lan else DEFAULT_COMMANDS),
        vision=_vision(args.vision), keys_dir=args.keys, silent_after_s=args.silent_after, gm=args.gm,
        dice_mode=args.dice, dice_countdown_s=max(0.0, args.dice_countdown),
    )
    # The sockets are bound before the journal is opened: an engine that cannot start writes no game.
    try:
        server = EngineServer(lambda: open_session(args.journal, args.scenario, args.game, args.new, args.save_dir),
                              config)
    except (ServiceError, KeyFileError, EngineError, ValueError) as exc:
        print(_("hexa engine: {error}", error=exc), file=sys.stderr)
        return 2
    session = server.session

    def _stop(signum: int, frame: FrameType | None) -> None:
        server.stop()

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    print(_("engine: game {id} of {name} ({n} actions played)", id=session.game_id, name=session.scenario.name,
            n=len(session.game.history)))
    print(_("engine: publishing on {pub}, commands on {commands}", pub=server.pub_endpoint,
            commands=server.commands_endpoint) + (" (CURVE)" if server.curve else ""), flush=True)
    if args.gm:
        print(_("engine: game master: whoever enters the GM code {code} and the tablet {tablet} (keep the code to "
                "the GM)", code=server.gm.code, tablet=args.gm))
        print(_("engine: the prompts the rules leave to the GM take the GM's answer only"))
    else:
        print(_("engine: game master: whoever enters the GM code {code} (keep the code to the GM)",
                code=server.gm.code))
        print(_("engine: no GM tablet named (--gm): the table decides the prompts the rules leave to the GM"))
    if args.dice == CAMERA_MODE:
        print(_("engine: dice from the camera: a roll read in the tray is taken after {s:g} s unless a player says it "
                "is wrong", s=config.dice_countdown_s) + ("" if server.feeds else " " + _(
                    "(no camera yet: give --vision)")))
    for feed in server.feeds:
        print(_("engine: camera {n} on {endpoint} (snapshots {snapshots})", n=feed.index, endpoint=feed.endpoint,
                snapshots=feed.snapshot_endpoint))
    if args.journal == ":memory:":
        print(_("engine: --journal :memory: — the game is kept in memory only and lost if the engine stops"))
    else:
        print(_("engine: journal {path} (every action is saved as it happens)", path=args.journal))
    print(_("engine: the table speaks {language} (a tablet may switch it)",
            language=LANGUAGE_NAMES[current_language()]))
    sys.stdout.flush()
    try:
        server.run()
    finally:
        server.close()
        session.close()
        session.journal.close()
    print(_("engine: stopped"))
    return 0
