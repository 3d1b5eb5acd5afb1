"""``hexa app``: open the tablet app (or its big-screen view) and connect it to an engine."""

from __future__ import annotations

import argparse
import logging
import sys

from companion_app.kivy_start import DEBUG_VARIABLE, prepare_kivy
from engine.i18n import gettext_for, take_language_option

_ = gettext_for(__name__)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa app", description=_("The tablet app beside the board."))
    p.add_argument("--engine", default="127.0.0.1", help=_("host running 'hexa engine' (default 127.0.0.1)"))
    p.add_argument("--pub-port", type=int, default=5560, help=_("engine publish port (default 5560)"))
    p.add_argument("--command-port", type=int, default=5561, help=_("engine command port (default 5561)"))
    p.add_argument("--vision", default=None, metavar="ENDPOINT",
                   help=_("camera service publisher for the live preview, e.g. tcp://127.0.0.1:5555"))
    p.add_argument("--big-screen", action="store_true", help=_("read-only view of the board and prompt for a TV"))
    p.add_argument("--text-scale", type=float, default=1.0, help=_("text size factor, 0.7 to 2.5 (default 1.0)"))
    p.add_argument("--size", default=None, metavar="WxH", help=_("window size in pixels on a desktop, e.g. 1280x800"))
    p.add_argument("--keys", metavar="DIR", help=_("CURVE keys from 'hexa keys' for an engine started with --lan "
                                                   "(needs DIR/server.key and DIR/clients/NAME.key_secret)"))
    p.add_argument("--client", default="tablet", help=_("this tablet's key name under DIR/clients (default tablet)"))
    p.add_argument("-v", "--verbose", action="store_true",
                   help=_("log the network agent's state changes and all of Kivy's start-up (or set {variable}=1)",
                          variable=DEBUG_VARIABLE))
    return p


def main(argv: list[str]) -> int:
    # 'hexa app' has taken --lang already; the APK's main.py starts here: --lang, HEXA_LANG or the system's language
    args = _parser().parse_args(take_language_option(argv))
    if not 0.7 <= args.text_scale <= 2.5:
        print("hexa app: " + _("--text-scale must be between 0.7 and 2.5, got {value}", value=args.text_scale),
              file=sys.stderr)
        return 2
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            size = (w, h)
        except ValueError:
            print("hexa app: " + _("--size must look like 1280x800, got {value}", value=repr(args.size)),
                  file=sys.stderr)
            return 2
    # Kivy (or, on a quiet start, one handler of prepare_kivy) prints the records; the app's loggers choose their level.
    logging.getLogger("companion_app").setLevel(logging.INFO if args.verbose else logging.WARNING)
    prepare_kivy(verbose=args.verbose)  # before the first import of Kivy
    from kivy.config import Config

    Config.set("input", "mouse", "mouse,disable_multitouch")  # right click is not a second finger
    if size is not None:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))

    from companion_app.net.agent import NetworkAgent
    from companion_app.ui.app import HexaApp

    keys = None
    if args.keys:
        from engine.service.security import KeyFileError, load_client_keys

        try:
            keys = load_client_keys(args.keys, args.client)
        except KeyFileError as exc:
            print(f"hexa app: {exc}", file=sys.stderr)
            return 2
    agent = NetworkAgent(f"tcp://{args.engine}:{args.pub_port}", f"tcp://{args.engine}:{args.command_port}",
                         args.vision, keys=keys)
    print(_("Connecting to the engine at {host} (ports {pub}/{commands}) …", host=args.engine, pub=args.pub_port,
            commands=args.command_port))
    HexaApp(agent, big_screen=args.big_screen, text_scale=args.text_scale).run()
    return 0
