"""``hexa demo``: start the whole product on the synthetic table, with the app's window or headless.

Examples::

    hexa demo                          # goblins-treasure in a window (headless when there is no screen): the demo
                                       # throws each roll's dice into the synthetic tray, the tablet shows the read
    hexa demo tutorial --headless --seed 3     # every roll thrown as dice on the synthetic table, read by the camera
    hexa demo --dice tablet            # the dice entered on the tablet instead
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from contextlib import ExitStack
from types import FrameType

from companion_app.kivy_start import quiet_handler
from engine.errors import ScenarioError
from engine.i18n import gettext_for, ngettext_for
from engine.scenario import load_scenario
from vision.synthetic.control_client import ControlError

from .launcher import DemoEndpoints, DemoError, DemoServices

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

DEFAULT_SCENARIO = "goblins-treasure"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa demo", description=_(
        "Run the camera service on the synthetic table, the engine and the tablet app together. Drag a figure "
        "on the tablet: a hand moves it on the synthetic table, the camera sees it and the engine judges it."))
    p.add_argument("scenario", nargs="?", default=DEFAULT_SCENARIO,
                   help=_("bundled scenario id or .toml file (default {scenario})", scenario=DEFAULT_SCENARIO))
    p.add_argument("--headless", action="store_true",
                   help=_("no window: a scripted player plays a whole game through the camera and prints the log"))
    p.add_argument("--seed", type=int, default=1, help=_("seed of the scripted player's choices and rolls (default 1)"))
    p.add_argument("--journal", default=":memory:", metavar="FILE",
                   help=_("game journal (SQLite) to keep the demo game in (default: in memory)"))
    # 15 fps halves the synthetic camera's CPU beside the engine and the app on a small machine; a figure
    # put down still settles within about 0.2 s.
    p.add_argument("--fps", type=float, default=15.0, help=_("synthetic camera frame rate (default 15)"))
    p.add_argument("--size", default="1280x800", metavar="WxH", help=_("app window size (default 1280x800)"))
    p.add_argument("--dice", choices=("camera", "tablet"), default="camera", help=_(
        "where the dice come from: 'camera' (every roll is thrown as dice on the synthetic table, by the scripted "
        "player headless and by the demo in a window, and the engine takes what the camera reads; default) or "
        "'tablet' (entered like a tablet)"))
    p.add_argument("--dice-countdown", type=float, default=1.0, metavar="SECONDS", help=_(
        "with --dice camera: how long the dice read are shown before the engine takes them (default 1)"))
    p.add_argument("-v", "--verbose", action="store_true", help=_("log what the demo's parts do"))
    return p


def has_display() -> bool:
    """Whether a window can open: always on macOS and Windows, with DISPLAY or WAYLAND_DISPLAY on Linux."""
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _stop_on_sigterm() -> None:
    def _raise(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _raise)  # a process manager's stop also takes the services down


def run_headless(args: argparse.Namespace) -> int:
    from .headless import DemoStalled  # the scripted player only here: the window's start does without it

    try:
        return _play_headless(args)
    except DemoStalled as exc:
        print(f"hexa demo: {exc}", file=sys.stderr)
        return 1


def _play_headless(args: argparse.Namespace) -> int:
    from .headless import play_headless

    start = time.monotonic()
    with DemoServices(args.scenario, args.journal, args.fps, dice=args.dice,
                      dice_countdown_s=args.dice_countdown) as services:
        ep = services.endpoints
        print(_("Playing {scenario} headless (seed {seed}): every move is made by a hand on the synthetic table and "
                "judged by the engine from what the camera sees.", scenario=args.scenario, seed=args.seed) + "\n",
              flush=True)
        stats = play_headless(args.scenario, ep.engine_pub, ep.engine_commands, ep.control, args.seed,
                              say=lambda line: print(line, flush=True), dice=args.dice == "camera")
        services.check()
    moves = sorted(stats.move_seconds)
    median = _(", median {seconds:.1f} s from hand to judgement", seconds=moves[len(moves) // 2]) if moves else ""
    print("\n" + _("{actions} prompts answered in {seconds:.0f} s (game {game:.0f} s): {moves} moves and {removals} "
                   "removals through the camera{median}; {answers} answers sent as a "
                   "tablet's taps (choices, and rolls the camera did not read); {corrected} "
                   "put where the game moved them.", actions=stats.actions, seconds=time.monotonic() - start,
                   game=stats.seconds, moves=stats.camera_moves, removals=stats.camera_removals,
                   median=median, answers=stats.tablet_answers,
                   corrected=_n("{n} figure", "{n} figures", stats.table_corrections)))
    if stats.dice is not None:
        print(stats.dice.line(), flush=True)
    return 0


def window_table(ep: DemoEndpoints, scenario: str, dice: str, seed: int = 1) -> ExitStack:
    """What stands in for the people at the synthetic table while the window is open: the hand that moves the
    figures the tablet drags and, with ``dice`` "camera", the roller that throws every roll's dice into the tray
    (the camera reads them, the tablet shows the reading). Close it (``with``) to stop them."""
    from .table_dice_roller import DiceRoller
    from .table_hand import TableHandProxy

    stack = ExitStack()
    stack.enter_context(TableHandProxy(ep.hand, ep.engine_commands, ep.engine_pub, ep.control, scenario))
    if dice == "camera":
        stack.enter_context(DiceRoller(ep.engine_pub, ep.engine_commands, ep.control, seed))
    return stack


def run_window(args: argparse.Namespace) -> int:
    from .window import open_app

    with DemoServices(args.scenario, args.journal, args.fps, dice=args.dice,
                      dice_countdown_s=args.dice_countdown) as services:
        ep = services.endpoints
        with window_table(ep, args.scenario, args.dice, args.seed):
            print(_("Opening the app. Drag the figure the app asks you to move; the synthetic table moves it and the "
                    "camera judges it. Close the window to stop."), flush=True)
            return open_app(ep, args.size)


def configure_logging(verbose: bool) -> None:
    """The demo's log lines from WARNING (INFO with --verbose) up; the window's Kivy logs through this process's
    handlers too, so its one handler is the app's quiet one (kivy_start), not a plain handler of its own."""
    level = logging.INFO if verbose else logging.WARNING
    logging.basicConfig(level=level, handlers=[quiet_handler(level, "%(levelname)s %(name)s: %(message)s")])


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    configure_logging(args.verbose)
    try:
        load_scenario(args.scenario)
    except ScenarioError as exc:
        print(f"hexa demo: {exc}", file=sys.stderr)
        return 2
    _stop_on_sigterm()
    try:
        if not args.headless and not has_display():
            print("hexa demo: " + _("there is no screen here (neither DISPLAY nor WAYLAND_DISPLAY is set), so the demo "
                                    "runs headless. For the window, run it on a desktop (or under xvfb-run)."),
                  flush=True)
            args.headless = True
        return run_headless(args) if args.headless else run_window(args)
    except KeyboardInterrupt:
        print("hexa demo: " + _("stopped; the camera service and the engine are stopped too."), file=sys.stderr)
        return 130
    except (DemoError, ControlError, TimeoutError) as exc:
        print(f"hexa demo: {exc}", file=sys.stderr)
        return 1
