"""``hexa vision``: run the camera service on a webcam, a video, an image folder or the synthetic table.

Examples::

    hexa vision --camera 0 --calibration calibration.json
    hexa vision --video table.mp4 --calibration calibration.json
    hexa vision --synthetic [SCENARIO]
    hexa vision --images DIR [--calibration FILE] [--dictionary NAME] [--marker-height MM] --jsonl OUT
    hexa vision --synthetic --dice --control tcp://127.0.0.1:5557      # dice thrown on command, read, published
    hexa vision --camera 0 --calibration calibration.json --dice-camera 1   # a second camera over the tray
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from calibration.calibration_file import CalibrationFileError, load_calibration
from calibration.camera_model import CameraModel
from calibration.tray_spec import TRAY_NAMES
from engine.i18n import N_, gettext_for
from engine.toml_syntax import toml_error
from vision.area import TableArea, drawing_area, seen_area
from vision.candidates import CandidateSettings
from vision.detection import DEFAULT_DICTIONARY, Detector, MarkerDetector, OpenCVDefaultDetector, dictionary_name
from vision.dice.camera import DiceCamera
from vision.dice.reader import DiceReader
from vision.dice.tracking import DiceTrackerConfig
from vision.publisher import DEFAULT_PUB, DEFAULT_SNAPSHOT, PublishError, VisionPublisher
from vision.service import FrameResult, JsonlWriter, ServiceConfig, VisionService
from vision.sources import CameraSource, FrameSource, ImageFolderSource, SourceError, SyntheticSource, VideoFileSource
from vision.synthetic.dice_tray import DiceTray
from vision.synthetic.motion import Choreography
from vision.tracking import TrackerConfig
from vision.tuio import DEFAULT_AREA, DEFAULT_TUIO, TuioSender

_ = gettext_for(__name__)

log = logging.getLogger("hexa.vision")


class UsageError(Exception):
    """Bad or inconsistent options; the message says which and how to fix it."""


_TAGS = CandidateSettings()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hexa vision", description=_("Find the tagged figures on the table and publish "
                                                                  "them over ZeroMQ (topics tracks, heartbeat, "
                                                                  "preview)."))
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", metavar="DEVICE", help=_("webcam index (0) or device path (/dev/video2)"))
    src.add_argument("--video", metavar="FILE", help=_("a recorded video of the table"))
    src.add_argument("--images", metavar="DIR", help=_("a folder of images, each an independent frame, in name order"))
    src.add_argument("--synthetic", metavar="SCENARIO", nargs="?", const="", default=None,
                     help=_("the synthetic table: the built-in demo map, or a scenario file or bundled id"))
    p.add_argument("--calibration", metavar="FILE", help=_("calibration file from 'hexa calibrate' (needed for mm)"))
    p.add_argument("--dictionary", default=DEFAULT_DICTIONARY, metavar="NAME",
                   help=_("ArUco dictionary, e.g. 4X4_100 (default) or 6X6_250"))
    p.add_argument("--marker-height", type=float, default=0.0, metavar="MM",
                   help=_("height of the tags above the table, for every id without its own --height (default 0)"))
    p.add_argument("--height", action="append", default=[], metavar="ID=MM", help=_("tag height of one id (repeat)"))
    p.add_argument("--heights", metavar="FILE", help=_("TOML file of tag heights: [heights] with '3 = 30.0' lines "
                                                       "and an optional 'default = 0.0'"))
    p.add_argument("--ids", metavar="LIST", help=_("the ids in play, e.g. 0-7,12; others are reported as strays"))
    p.add_argument("--area", metavar="X0,Y0,X1,Y1",
                   help=_("the table area in mm, e.g. the bounds of the scenario's board: TUIO positions are "
                          "fractions of it, and a tag outside it is still tracked (its TUIO position clamped to the "
                          "edge) and warned about once (default: the synthetic table's board, else what the "
                          "calibrated camera sees); write --area=-30,-25,290,250 when it starts with a minus"))
    p.add_argument("--jsonl", metavar="OUT", help=_(
        "write one JSON object per frame to OUT ('-' for stdout); from a live camera with --dice, a frame's dice "
        "follow on a line of their own"))
    p.add_argument("--pub", metavar="ENDPOINT", help=_("ZeroMQ PUB endpoint (default {DEFAULT_PUB})",
                                                       DEFAULT_PUB=DEFAULT_PUB))
    p.add_argument("--keys", metavar="DIR", help=_("CURVE keys from 'hexa keys': only the engine (an allowed key) "
                                                   "may subscribe; needed to serve the LAN, e.g. --pub "
                                                   "tcp://0.0.0.0:5555"))
    p.add_argument("--snapshot", metavar="ENDPOINT", default=DEFAULT_SNAPSHOT,
                   help=_("snapshot ROUTER endpoint (default {DEFAULT_SNAPSHOT})", DEFAULT_SNAPSHOT=DEFAULT_SNAPSHOT))
    p.add_argument("--no-publish", action="store_true", help=_("do not open ZeroMQ sockets"))
    p.add_argument("--preview", type=float, nargs="?", const=2.0, default=0.0, metavar="FPS",
                   help=_("publish a preview JPEG this often (default off; 2 fps when given alone)"))
    p.add_argument("--tuio", nargs="?", const=f"{DEFAULT_TUIO[0]}:{DEFAULT_TUIO[1]}", metavar="HOST:PORT",
                   help=_("also send TUIO 2.0 over OSC/UDP (default 127.0.0.1:3333); positions are fractions of "
                          "--area, clamped to 0..1, and the frame's dimension is that area's size in mm"))
    p.add_argument("--camera-id", default="0", help=_("this camera's name in messages (several cameras, one table)"))
    p.add_argument("--resolution", metavar="WxH",
                   help=_("webcam resolution (default: the calibration's, else 1920x1080)"))
    p.add_argument("--fps", type=float, default=30.0, help=_("webcam / synthetic frame rate (default 30)"))
    p.add_argument("--no-mjpg", action="store_true", help=_("do not ask the webcam for MJPG"))
    p.add_argument("--frames", type=int, metavar="N", help=_("stop after N frames"))
    p.add_argument("--fast", action="store_true", help=_("synthetic table: render as fast as possible, not in real "
                                                         "time"))
    p.add_argument("--control", metavar="ENDPOINT", help=_("synthetic table: figures stand still and a hand places, "
                                                           "lifts or removes them on command from this loopback "
                                                           "ROUTER endpoint, e.g. tcp://127.0.0.1:5557 (see "
                                                           "vision.synthetic.control)"))
    p.add_argument("--dice", action="store_true",
                   help=_("read the dice in the tray mats ('hexa print tray') seen in this camera's frames and "
                          "publish them (topic dice); the synthetic table draws a tray beside its map, and with "
                          "--control a hand throws dice into it on command"))
    p.add_argument("--dice-camera", metavar="SOURCE",
                   help=_("read the dice with a camera of their own: a webcam index or device path, a stream URL or "
                          "a video file; 'synthetic' with --synthetic: a second virtual camera over the tray, from "
                          "an angle"))
    p.add_argument("--dice-calibration", metavar="FILE",
                   help=_("the dice camera's calibration file (its lens); without it a typical webcam lens is "
                          "assumed"))
    p.add_argument("--dice-read-ahead", metavar="SECONDS", type=float,
                   default=DiceTrackerConfig().read_after_s or 0.0,
                   help=_("read a die once it has been still this long, ahead of reporting it when it has settled "
                          "(still {settle_s} s): the frame that settles it need not wait for the reading; 0 reads it "
                          "only then (default {default} s)", settle_s=DiceTrackerConfig().settle_s,
                          default=DiceTrackerConfig().read_after_s))
    p.add_argument("--detector", choices=("fast", "opencv"), default="fast",
                   help=_("fast: ours (default); opencv: OpenCV's ArucoDetector with its default parameters, several "
                          "times slower, as a reference"))
    p.add_argument("--second-look", action=argparse.BooleanOptionalAction, default=True,
                   help=_("trace again, at full resolution, the boxes that the tags read do not fill: tags seen at a "
                          "steep angle (45–65°) and tags touching at their corners (default on; when the camera "
                          "looks nearly straight down only long boxes are traced again, so it costs little)"))
    p.add_argument("--min-tag-px", type=float, default=_TAGS.min_side_px, metavar="PX",
                   help=_("smallest tag side looked for, in image pixels (default {min_side_px:g})",
                          min_side_px=_TAGS.min_side_px))
    p.add_argument("--max-tag-px", type=float, default=_TAGS.max_side_px, metavar="PX",
                   help=_("largest tag side looked for, in image pixels (default {max_side_px:g})",
                          max_side_px=_TAGS.max_side_px))
    p.add_argument("-v", "--verbose", action="store_true", help=_("log more"))
    return p


def _detector(args: argparse.Namespace) -> Detector:
    if args.detector == "opencv":
        return OpenCVDefaultDetector(args.dictionary)
    if not 0 < args.min_tag_px < args.max_tag_px:
        raise UsageError(_("--min-tag-px {min_tag_px:g} and --max-tag-px {max_tag_px:g}: the smallest tag side must "
                           "be above 0 and below the largest, e.g. --min-tag-px 12 --max-tag-px 120",
                           min_tag_px=args.min_tag_px, max_tag_px=args.max_tag_px))
    tags = CandidateSettings(min_side_px=args.min_tag_px, max_side_px=args.max_tag_px)
    return MarkerDetector(args.dictionary, tags, second_look=args.second_look)


PREPARING = "prepare-detector"  # the thread that loads the detector's compiled kernels beside the start


def _prepare(detector: Detector) -> None:
    """Compile our detector before the first frame, saying so if it takes a while (first run only)."""
    if not isinstance(detector, MarkerDetector):
        return
    done = threading.Event()

    def note() -> None:
        if not done.wait(1.0):
            print(_("hexa vision: compiling the tag detector (first run on this machine only, about 10 s)…"),
                  file=sys.stderr, flush=True)

    threading.Thread(target=note, name="prepare-note", daemon=True).start()
    seconds = detector.prepare()
    done.set()
    if seconds >= 1.0:
        print(_("hexa vision: tag detector ready ({seconds:.0f} s; later starts reuse it)", seconds=seconds),
              file=sys.stderr)


def _parse_heights(items: list[str]) -> dict[int, float]:
    heights: dict[int, float] = {}
    for item in items:
        try:
            key, value = item.split("=", 1)
            heights[int(key)] = float(value)
        except ValueError:
            raise UsageError(_("--height {item!r}: write it as ID=MM, e.g. --height 3=30", item=item)) from None
    return heights


def _load_heights(path: str | None) -> tuple[dict[int, float], float | None]:
    """Tag heights from a TOML file: ``[heights]`` with ``ID = MM`` entries and an optional ``default``."""
    if path is None:
        return {}, None
    try:
        text = Path(path).read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise UsageError(_("heights file {path} does not exist: check the path", path=path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(_("heights file {error}", error=toml_error(exc, text, path))) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(_("heights file {path} cannot be read ({exc}): fix the TOML syntax", path=path,
                           exc=exc)) from None
    table = data.get("heights")
    if not isinstance(table, dict):
        raise UsageError(_("heights file {path} has no [heights] table: add one with lines like '3 = 30.0'",
                           path=path))
    heights: dict[int, float] = {}
    default: float | None = None
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1000:
            raise UsageError(_("heights file {path}: {key} = {value!r} must be a height in mm (0 to 1000)",
                               path=path, key=key, value=value))
        if key == "default":
            default = float(value)
        elif key.isdigit():
            heights[int(key)] = float(value)
        else:
            raise UsageError(_("heights file {path}: {key!r} is not a marker id; use numbers like '3 = 30.0'",
                               path=path, key=key))
    return heights, default


def _parse_ids(text: str | None) -> frozenset[int] | None:
    if text is None:
        return None
    ids: set[int] = set()
    try:
        for part in text.split(","):
            if "-" in part:
                lo, hi = part.split("-", 1)
                ids.update(range(int(lo), int(hi) + 1))
            elif part.strip():
                ids.add(int(part))
    except ValueError:
        raise UsageError(_("--ids {text!r}: write ids and ranges like 0-7,12", text=text)) from None
    return frozenset(ids)


def _parse_area(text: str | None) -> TableArea | None:
    if text is None:
        return None
    try:
        x0, y0, x1, y1 = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(_("--area {text!r}: give four millimetre values X0,Y0,X1,Y1", text=text)) from None
    if x1 <= x0 or y1 <= y0:
        raise UsageError(_("--area {text!r}: X1 must exceed X0 and Y1 exceed Y0", text=text))
    return TableArea(x0, y0, x1, y1)


def _camera_device(text: str) -> int | str:
    """A webcam index, a device path (it may appear later: plugged in), a stream URL or an existing video file."""
    if text.isdigit():
        return int(text)
    if text.startswith("/dev/") or "://" in text or Path(text).exists():
        return text
    raise UsageError(_("--camera {text!r} is neither a camera index nor an existing device or file: pass an index "
                       "(--camera 0), a device path (--camera /dev/video2; list them with 'v4l2-ctl --list-devices') "
                       "or a stream URL, or use --video FILE for a recording", text=text))


def _tuio_target(text: str) -> tuple[str, int]:
    host, _sep, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(_("--tuio {text!r}: write it as HOST:PORT, e.g. --tuio 127.0.0.1:3333", text=text))
    return host or DEFAULT_TUIO[0], int(port)


def _resolution(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(_("--resolution {text!r}: write it as WIDTHxHEIGHT, e.g. 1280x720", text=text)) from None
    return w, h


def _synthetic(args: argparse.Namespace, camera: CameraModel | None, heights: dict[int, float]
               ) -> tuple[SyntheticSource, CameraModel, TableArea]:
    """The synthetic table's source, its camera, and the bounds of the board it draws (with a dice tray beside
    the board when dice are read)."""
    from vision.synthetic.demo_scene import demo_table, table_centre
    from vision.synthetic.renderer import TableRenderer

    if args.synthetic:
        from vision.synthetic.scenario_scene import ScenarioError, load_scenario_table

        try:
            table, scenario_heights = load_scenario_table(args.synthetic)
        except ScenarioError as exc:
            raise UsageError(str(exc)) from None
        for marker_id, h in scenario_heights.items():
            heights.setdefault(marker_id, h)
    else:
        table = demo_table()
        for f in table.figures:
            heights.setdefault(f.marker_id, f.height_mm)
    board = drawing_area(table)
    trays: tuple[DiceTray, ...] = ()
    if args.dice or args.dice_camera:
        from calibration.tray_spec import tray_spec
        from vision.synthetic.dice_tray import DiceTray, tray_origin_beside, with_tray

        spec = tray_spec()
        origin = tray_origin_beside(table, spec)
        table = with_tray(table, spec, origin)
        trays = (DiceTray(spec, origin),)
    model = camera or CameraModel.synthetic(look_at_mm=table_centre(table))
    print(_("hexa vision: rendering the synthetic table…"), file=sys.stderr)
    renderer = TableRenderer(model, table, dictionary_name(args.dictionary))
    choreography = None
    if args.control:
        from vision.synthetic.control import ControlledTable

        choreography = ControlledTable(table.figures, table.size_mm, trays)
    source = SyntheticSource(renderer, choreography, fps=args.fps, realtime=not args.fast, frames=args.frames,
                             trays=trays)
    return source, model, board


def _synthetic_tray_camera(args: argparse.Namespace, main: SyntheticSource) -> SyntheticSource:
    """A second virtual camera 420 mm from the synthetic tray, 50° from vertical, seeing the same dice."""
    import math

    from vision.synthetic.renderer import TableRenderer

    tray = main.trays[0]
    cx, cy = tray.origin_mm[0] + tray.spec.width_mm / 2, tray.origin_mm[1] + tray.spec.height_mm / 2
    lens = main.renderer.camera
    tilt, distance = math.radians(50.0), 420.0
    camera = CameraModel.looking_at(lens.camera_matrix, lens.dist_coeffs, lens.image_size,
                                    (cx, cy + distance * math.sin(tilt), distance * math.cos(tilt)), (cx, cy, 0.0))
    renderer = TableRenderer(camera, main.renderer.table, dictionary_name(args.dictionary))
    still = Choreography(())
    return SyntheticSource(renderer, still, fps=args.fps, realtime=True, trays=main.trays, seed=1)


class _Progress:
    """Prints how far a long file run has got, every two seconds, to stderr."""

    def __init__(self, total: int | None, what: str) -> None:
        self.total, self.what, self.count = total, what, 0
        self.start = self._last = time.monotonic()

    def __call__(self, result: FrameResult) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self._last >= 2.0:
            self._last = now
            rate = self.count / max(now - self.start, 1e-9)
            if self.total:
                print(_("hexa vision: {count}/{total} {what}, {rate:.1f} per second",
                        count=self.count, total=self.total, what=_(self.what), rate=rate), file=sys.stderr)
            else:
                print(_("hexa vision: {count} {what}, {rate:.1f} per second",
                        count=self.count, what=_(self.what), rate=rate), file=sys.stderr)


def run(args: argparse.Namespace, stdout: IO[str]) -> int:
    heights, default_height = _load_heights(args.heights)
    heights.update(_parse_heights(args.height))
    if default_height is not None and args.marker_height == 0.0:
        args.marker_height = default_height
    # Tags outside --area stay tracked (the tracker is not told about it): the service warns about them.
    area = _parse_area(args.area)
    tracker = TrackerConfig(known_ids=_parse_ids(args.ids))
    detector = _detector(args)
    # Loading the detector's compiled kernels takes a second or more: done beside the rest of the start (the
    # calibration, the synthetic table's picture, the camera opening), waited for just before the first frame.
    preparing = threading.Thread(target=_prepare, args=(detector,), name=PREPARING, daemon=True)
    preparing.start()
    camera: CameraModel | None = None
    if args.calibration:
        camera = load_calibration(args.calibration).camera
    if args.control and args.synthetic is None:
        raise UsageError(_("--control moves figures on the synthetic table: use it with --synthetic [SCENARIO]"))
    open_source: Callable[[], FrameSource] | None = None
    source: FrameSource | None = None
    progress: _Progress | None = None
    board: TableArea | None = None
    synthetic: SyntheticSource | None = None
    if args.synthetic is not None:
        synthetic, camera, board = _synthetic(args, camera, heights)
        if synthetic.live:
            open_source = lambda: synthetic  # noqa: E731 - the same renderer serves every (re)connection
        else:
            source = synthetic
    elif args.camera is not None:
        device = _camera_device(args.camera)
        w, h = _resolution(args.resolution) if args.resolution else (camera.image_size if camera else (1920, 1080))
        # OpenCV's own logs repeat a dozen lines per failed open while the camera is away; -v keeps them.
        open_source = lambda: CameraSource(device, w, h, args.fps, not args.no_mjpg,  # noqa: E731
                                           quiet=not args.verbose)
        if camera is None and args.jsonl is None:
            open_source().close()  # a camera that cannot be opened is the first thing to fix: say it first
    elif args.video is not None:
        source = VideoFileSource(args.video)
        progress = _Progress(None, N_("frames"))
    else:
        folder = ImageFolderSource(args.images)
        source = folder
        progress = _Progress(len(folder.files), N_("images"))
    if camera is None and args.jsonl is None:
        raise UsageError(_("without --calibration there are no table positions to publish: run 'hexa calibrate' and "
                           "pass --calibration FILE, or use --jsonl OUT for pixel positions only"))
    # With --jsonl the JSON lines are the output; sockets only when --pub asks for them too.
    publish = not args.no_publish and camera is not None and (args.jsonl is None or args.pub is not None)
    config = ServiceConfig(camera_id=args.camera_id, heights_mm=heights, default_height_mm=args.marker_height,
                           tracker=tracker, preview_fps=args.preview, max_frames=args.frames,
                           track=args.images is None, area=area)
    with ExitStack() as stack:
        publisher = None
        if publish:
            publisher = VisionPublisher(args.pub or DEFAULT_PUB, args.snapshot, args.camera_id, keys_dir=args.keys)
            stack.callback(publisher.close)
            print(_("hexa vision: publishing on {endpoint} (snapshots on {snapshot_endpoint}){value}",
                    endpoint=publisher.endpoint, snapshot_endpoint=publisher.snapshot_endpoint,
                    value=_(", CURVE on") if publisher.curve else ""), file=sys.stderr)
        if args.control:
            from vision.synthetic.control import ControlledTable, ControlServer

            assert synthetic is not None and isinstance(synthetic.choreography, ControlledTable)
            control = ControlServer(args.control, synthetic.choreography)
            stack.callback(control.close)
            print(_("hexa vision: the synthetic table takes place/lift/remove/list on {endpoint}",
                    endpoint=control.endpoint),
                  file=sys.stderr)
        tuio = None
        if args.tuio and camera is not None:
            host, port = _tuio_target(args.tuio)
            tuio_area = area or board or seen_area(camera) or DEFAULT_AREA
            tuio = TuioSender(host, port, tuio_area, f"hexa-vision:{args.camera_id}")
            stack.callback(tuio.close)
            print(_("hexa vision: TUIO 2.0 to {host}:{port}, positions over the table area {tuio_area}",
                    host=host, port=port, tuio_area=tuio_area), file=sys.stderr)
        sinks: list[Callable[[FrameResult], None]] = []
        if args.jsonl is not None:
            stream = stdout if args.jsonl == "-" else stack.enter_context(_jsonl_file(args.jsonl))
            sinks.append(JsonlWriter(stream))
        if progress is not None:
            sinks.append(progress)
        preparing.join()
        # An image folder's images are unrelated pictures: each die is read at once, not once it has settled.
        ahead = args.dice_read_ahead if args.dice_read_ahead > 0 else None
        tracking = DiceTrackerConfig(read_after_s=ahead)
        still = DiceTrackerConfig(settle_s=0.0) if args.images is not None else tracking
        dice_reader = DiceReader(TRAY_NAMES, camera, still) if args.dice else None
        dice_camera = None
        if args.dice_camera:
            dice_camera = DiceCamera(_dice_source(args, synthetic), _detector(args),
                                     DiceReader(TRAY_NAMES, _dice_lens(args), tracking),
                                     f"{args.camera_id}:dice").start()
            stack.callback(dice_camera.stop)
            print(_("hexa vision: reading the dice with the camera {source}", source=args.dice_camera),
                  file=sys.stderr)
        service = VisionService(config, detector, camera, publisher, tuio, sinks, dice_reader, dice_camera)
        previous = None
        if threading.current_thread() is threading.main_thread():
            # Stop cleanly under a process manager; put the old handler back afterwards.
            previous = signal.signal(signal.SIGTERM, lambda *_: service.stop())
        try:
            if open_source is not None:
                stats = service.run_live(open_source)
            else:
                assert source is not None
                stats = service.run_sequential(source)
        except KeyboardInterrupt:
            print(_("hexa vision: stopped"), file=sys.stderr)
            return 130
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
    if stats.detect_ms:
        ordered = sorted(stats.detect_ms)
        print(_("hexa vision: {frames} frames, detection p50 {value:.1f} ms",
                frames=stats.frames, value=ordered[len(ordered) // 2]),
              file=sys.stderr)
    return 0


def _jsonl_file(path: str) -> IO[str]:
    """The file --jsonl names, opened to write; a clear refusal when it cannot be."""
    try:
        return Path(path).open("w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(_("--jsonl {path}: cannot write it ({error}): give a file in a folder that exists and "
                           "that you may write to, or '-' for the standard output", path=path,
                           error=exc.strerror or exc)) from exc


def _dice_source(args: argparse.Namespace, synthetic: SyntheticSource | None) -> Callable[[], FrameSource]:
    """How to open the dice camera named by --dice-camera."""
    text = args.dice_camera
    if text == "synthetic":
        if synthetic is None:
            raise UsageError(_("--dice-camera synthetic needs --synthetic [SCENARIO]: it looks at the synthetic "
                               "table's tray"))
        tray_camera = _synthetic_tray_camera(args, synthetic)
        return lambda: tray_camera
    if Path(text).is_file():
        return lambda: VideoFileSource(text)
    device = _camera_device(text)
    w, h = _resolution(args.resolution) if args.resolution else (1920, 1080)
    return lambda: CameraSource(device, w, h, args.fps, not args.no_mjpg, quiet=not args.verbose)


def _dice_lens(args: argparse.Namespace) -> CameraModel | None:
    return load_calibration(args.dice_calibration).camera if args.dice_calibration else None


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return run(args, sys.stdout)
    except (UsageError, SourceError, CalibrationFileError, PublishError, ValueError) as exc:
        print(_("hexa vision: {exc}", exc=exc), file=sys.stderr)
        return 2
    finally:
        # A process that ends while the detector's kernels compile on their thread is aborted by the compiler
        # ("terminate called without an active exception"): a refusal at start waits for that thread first.
        for thread in threading.enumerate():
            if thread.name == PREPARING:
                thread.join()
