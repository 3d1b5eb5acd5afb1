"""Dice read from real photographs: the camera service's d6 reading on labelled photos, beside plain blob counting.

The corpus is public photos of real dice listed in ``bench/dice_real.json`` (source repository, commit, path,
sha256, licence). The files are not in git: they are cached in ``bench/data/dice_real/`` and taken from a local
clone of their repository (``--from-git owner/name=GIT_DIR``) or downloaded from the commit's raw URL
(``--download``); without them the bench says how to get them and stops.

The photos carry no tray tags, so nothing tells the reader where the tray's plane is. The bench stands in for
the tray's calibration twice over: it takes the camera to be straight above each die (no side of the die to take
away), and it takes each photo's scale from its labels (the median box is a 16 mm die's at a random turn, which
spans 4/π of its side on average). Then every labelled die goes through the service's own steps for one die: its
blob of not-tray colour (``segment.find_blobs``, in a window twice the label's box around it), its top face
(``top_face.top_faces``); then, as the service does first, when that top is about a die's size and not a
cocked die's, the top face found in the pixels of a wider patch around it and its pips counted at the face's
own size (``reader.read_d6_around``; a face found whose centre lies outside the label's box is a neighbour's,
and this die counts as not found); else the square-and-size check (``reader.looks_like_d6_top``), the patch
squared to the face's sides, and the pip count with its confidence floor (``reader.read_d6_face``). A die is
*right* (read, the labelled face), *wrong* (read, another face: a silent misread) or *asked* (the reader would
ask: no blob at the label, a top that is not a d6's, or pips that do not add up surely). The baseline is
bench/dice.py's: pip-sized spots counted with ``cv2.SimpleBlobDetector`` in a square around the labelled die
(it never asks).

Beside them, *placed by hand* counts the pips alone (``reader.read_d6_face``) on the patch at the label's centre,
its size the label box's, at every turn in 5° steps, keeping the surest reading: what the reader would say if
it found each top face's place, turn and size right. It tells the pip counting's part from the finding's.

Target: settled d6 right ≥ 99.5 % (and never wrong).

Usage: ``.venv/bin/python bench/dice_real.py [--quick] [--from-git owner/name=DIR] [--download] [--crops DIR]
[--out DIR]``.
"""

from __future__ import annotations

import argparse
import json
import math
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from dice import BASELINE_PX_PER_MM, baseline_count
from numpy.typing import NDArray
from vision_corpus import REPO, machine, progress, write_result
from vision_real import add_fetch_arguments, clone_dirs, fetch_file

from vision.dice.faces import D6_SIDE_MM
from vision.dice.reader import (
    D6_AROUND_MM,
    D6_PATCH_MM,
    READ_PX_PER_MM,
    looks_like_d6_top,
    near_d6_size,
    read_d6_around,
    read_d6_face,
    read_d6_top,
)
from vision.dice.segment import Blob, find_blobs
from vision.dice.top_face import TopFace, top_faces

Image = NDArray[np.uint8]
MANIFEST = REPO / "bench" / "dice_real.json"
DATA = REPO / "bench" / "data" / "dice_real"
QUICK_PHOTOS = 4  # per file
TARGET = 0.995
BOX_PER_SIDE = 4.0 / math.pi  # a die's box over its side, on average over its turn
TURNS_DEG = tuple(range(0, 90, 5))  # the turns tried when the die is placed by hand (a square repeats every 90°)
WINDOW = 2.0  # the window a die is looked for in, in label boxes (other dice may be in it too)
ASKED = ("no die found", "not a d6 top", "pips unsure")


@dataclass(frozen=True, slots=True)
class LabelledDie:
    value: int
    box_px: tuple[float, float, float, float]  # x0, y0, x1, y1

    @property
    def centre_px(self) -> tuple[float, float]:
        return ((self.box_px[0] + self.box_px[2]) / 2.0, (self.box_px[1] + self.box_px[3]) / 2.0)

    def holds(self, point_px: tuple[float, float]) -> bool:
        """Whether ``point_px`` lies inside the label's box."""
        x0, y0, x1, y1 = self.box_px
        return x0 <= point_px[0] <= x1 and y0 <= point_px[1] <= y1

    @property
    def size_px(self) -> float:
        return max(self.box_px[2] - self.box_px[0], self.box_px[3] - self.box_px[1])


@dataclass(frozen=True, slots=True)
class Photo:
    name: str
    image: Image
    dice: tuple[LabelledDie, ...]


# --- TFRecord files of tf.train.Example records, read without TensorFlow (the protobuf wire format) ---

def _varint(buf: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def _fields(buf: bytes) -> Iterator[tuple[int, int, int | bytes]]:
    """(field number, wire type, value) of a protobuf message: an int for varints, the bytes otherwise."""
    i = 0
    while i < len(buf):
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        value: int | bytes
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 2:
            size, i = _varint(buf, i)
            value, i = buf[i:i + size], i + size
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value, i = buf[i:i + size], i + size
        else:
            raise ValueError(f"protobuf wire type {wire} is not used by tf.train.Example")
        yield number, wire, value


def _feature_values(feature: bytes) -> list[bytes | float | int]:
    """A tf.train.Feature's values: bytes_list (1), float_list (2) or int64_list (3), packed or not."""
    out: list[bytes | float | int] = []
    for kind, _wire, listed in _fields(feature):
        assert isinstance(listed, bytes)
        for _n, wire, value in _fields(listed):
            if kind == 1:
                assert isinstance(value, bytes)
                out.append(value)
            elif kind == 2:
                assert isinstance(value, bytes)
                out.extend(struct.unpack(f"<{len(value) // 4}f", value))
            elif wire == 2:  # packed int64s
                assert isinstance(value, bytes)
                j = 0
                while j < len(value):
                    number, j = _varint(value, j)
                    out.append(number)
            else:
                assert isinstance(value, int)
                out.append(value)
    return out


def example_features(record: bytes) -> dict[str, list[bytes | float | int]]:
    """A tf.train.Example's features by name."""
    out: dict[str, list[bytes | float | int]] = {}
    for _n, _w, features in _fields(record):  # Example.features
        assert isinstance(features, bytes)
        for _n2, _w2, entry in _fields(features):  # map<string, Feature> entries
            assert isinstance(entry, bytes)
            parts = {number: value for number, _w3, value in _fields(entry)}
            name, feature = parts.get(1, b""), parts.get(2, b"")
            assert isinstance(name, bytes) and isinstance(feature, bytes)
            out[name.decode()] = _feature_values(feature)
    return out


def tfrecords(data: bytes) -> Iterator[bytes]:
    """The records of a TFRecord file: each a length (u64), its CRC, the data, the data's CRC."""
    i = 0
    while i + 12 <= len(data):
        (size,) = struct.unpack("<Q", data[i:i + 8])
        yield data[i + 12:i + 12 + size]
        i += 12 + size + 4


def photos(path: Path, limit: int | None = None, corrections: dict[tuple[str, int], tuple[int, int]] | None = None
           ) -> Iterator[Photo]:
    """The labelled photos of a TFRecord file (the first ``limit``); a label listed in ``corrections`` ((photo,
    die index) → (label given, face shown)) is replaced by the face the die shows."""
    for k, record in enumerate(tfrecords(path.read_bytes())):
        if limit is not None and k >= limit:
            return
        f = example_features(record)
        encoded = f["image/encoded"][0]
        assert isinstance(encoded, bytes)
        image = cv2.imdecode(np.frombuffer(encoded, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path.name}: record {k} holds no readable JPEG")
        h, w = image.shape[:2]
        boxes = zip(f["image/object/bbox/xmin"], f["image/object/bbox/ymin"], f["image/object/bbox/xmax"],
                    f["image/object/bbox/ymax"], strict=True)
        dice = tuple(LabelledDie(int(label), (float(x0) * w, float(y0) * h, float(x1) * w, float(y1) * h))
                     for label, (x0, y0, x1, y1) in zip(f["image/object/class/label"], boxes, strict=True))
        name = f.get("image/filename", [b"?"])[0]
        photo_name = name.decode() if isinstance(name, bytes) else str(name)
        yield Photo(photo_name, np.asarray(image, np.uint8), _corrected(photo_name, dice, corrections or {}))


def _corrected(photo: str, dice: tuple[LabelledDie, ...], corrections: dict[tuple[str, int], tuple[int, int]]
               ) -> tuple[LabelledDie, ...]:
    """``dice`` with the labels found wrong replaced by the faces shown; a correction whose label is not the one
    given in the file does not fit this file (an error)."""
    out = []
    for k, die in enumerate(dice):
        if (photo, k) in corrections:
            given, shown = corrections[(photo, k)]
            if die.value != given:
                raise ValueError(f"{photo} die {k}: the correction is for a label {given}, the file gives {die.value}")
            die = LabelledDie(shown, die.box_px)
        out.append(die)
    return tuple(out)


def corrections_of(source: dict[str, Any], file_name: str) -> dict[tuple[str, int], tuple[int, int]]:
    """A manifest source's label corrections for one of its files: (photo, die index) → (label given, face
    shown)."""
    return {(c["photo"], int(c["die"])): (int(c["label"]), int(c["face"]))
            for c in source.get("corrections", ()) if c["file"] == file_name}


# --- one die through the reader's steps ---

def _window(image: Image, die: LabelledDie) -> tuple[Image, tuple[float, float]]:
    """A square around the labelled die, ``WINDOW`` boxes wide (the photo's edge repeated beyond it), and its
    top-left corner in the photo."""
    side = max(math.ceil(die.size_px * WINDOW), 16)  # a degenerate label still gets a window
    cx, cy = die.centre_px
    window = cv2.getRectSubPix(image, (side, side), (cx, cy))
    return np.asarray(window, np.uint8), (cx - side / 2.0, cy - side / 2.0)


def die_top(image: Image, die: LabelledDie, px_per_mm: float) -> tuple[Blob, TopFace, tuple[float, float]] | None:
    """The blob at the labelled die and its top face (in mm at ``px_per_mm``; the camera taken straight above
    it), and the window's corner in the photo; None when no blob lies at the label."""
    window, corner = _window(image, die)
    visible = np.full(window.shape[:2], 255, np.uint8)
    blobs = find_blobs(window, visible, px_per_mm)
    middle = window.shape[1] / 2.0, window.shape[0] / 2.0
    reach = die.size_px / 2.0
    best = None
    for blob in blobs:
        x0, y0, w, h = blob.box
        mx, my = round(middle[0]) - x0, round(middle[1]) - y0
        covers = 0 <= mx < w and 0 <= my < h and blob.mask[my, mx] > 0
        off = math.dist((blob.centroid_mm[0] * px_per_mm, blob.centroid_mm[1] * px_per_mm), middle)
        if covers or off < reach:
            best = blob if best is None or covers else best
            if covers:
                break
    if best is None:
        return None
    faces = top_faces(best, px_per_mm, 0.0, best.centroid_mm, 1.0e6, D6_SIDE_MM)
    return (best, faces[0], corner) if faces else None


def photo_scale(photo: Photo) -> float:
    """The photo's pixels per mm, as a calibration would give them: the median labelled box is a 16 mm die's
    at a random turn (a unit square turned by a uniform random angle spans 4/π on average)."""
    return float(np.median([die.size_px for die in photo.dice])) / (BOX_PER_SIDE * D6_SIDE_MM)


def face_patch(image: Image, centre_px: tuple[float, float], angle_deg: float, px_per_mm: float,
               size_mm: float = D6_PATCH_MM, out_px_per_mm: float = READ_PX_PER_MM) -> Image:
    """A ``size_mm`` square around ``centre_px``, its top towards ``angle_deg`` (as the service's tray patch
    turns it to the face's side), at ``out_px_per_mm``."""
    n = round(size_mm * out_px_per_mm)
    a = math.radians(angle_deg)
    ux, uy = math.cos(a), math.sin(a)
    rx, ry = -uy, ux
    half = size_mm / 2.0 * px_per_mm
    cx, cy = centre_px
    src = np.array([(cx + (-rx + ux) * half, cy + (-ry + uy) * half), (cx + (rx + ux) * half, cy + (ry + uy) * half),
                    (cx + (-rx - ux) * half, cy + (-ry - uy) * half)], np.float32)
    dst = np.array([[0, 0], [n, 0], [0, n]], np.float32)
    matrix = cv2.getAffineTransform(src, dst)
    return np.asarray(cv2.warpAffine(image, matrix, (n, n), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE), np.uint8)


def patch_to_photo(point_px: tuple[float, float], centre_px: tuple[float, float], angle_deg: float,
                   px_per_mm: float, n: int, out_px_per_mm: float = READ_PX_PER_MM) -> tuple[float, float]:
    """Where a pixel of a :func:`face_patch` (``n`` pixels wide) lies in the photo."""
    a = math.radians(angle_deg)
    ux, uy = math.cos(a), math.sin(a)
    rx, ry = -uy, ux
    k = px_per_mm / out_px_per_mm
    dx, dy = point_px[0] - n / 2.0, point_px[1] - n / 2.0
    return centre_px[0] + (dx * rx - dy * ux) * k, centre_px[1] + (dx * ry - dy * uy) * k


def read_die(image: Image, die: LabelledDie, px_per_mm: float) -> tuple[str, int | None, float, Image | None]:
    """(outcome, value read, confidence, the patch read) for one labelled die: outcome is right, wrong or why
    the reader would ask."""
    found = die_top(image, die, px_per_mm)
    if found is None:
        return "no die found", None, 0.0, None
    _blob, face, corner = found
    centre = (corner[0] + face.centre_mm[0] * px_per_mm, corner[1] + face.centre_mm[1] * px_per_mm)
    patch = face_patch(image, centre, face.angle_deg, px_per_mm)
    around = face_patch(image, centre, face.angle_deg, px_per_mm, D6_AROUND_MM)
    square = read_d6_around(around, face)[1] if near_d6_size(face) else None
    if square is not None and not die.holds(patch_to_photo(square.centre_px, centre, face.angle_deg, px_per_mm,
                                                           around.shape[0])):
        return "no die found", None, 0.0, around  # the face found is a neighbour's: this die is not found
    reading = read_d6_top(face, lambda size_mm: face_patch(image, centre, face.angle_deg, px_per_mm, size_mm))
    if reading is not None:  # the service's own verdict on this top face
        return ("right" if reading.value == die.value else "wrong"), reading.value, reading.confidence, around
    if square is not None or looks_like_d6_top(face):
        return "pips unsure", None, 0.0, around if square is not None else patch
    return "not a d6 top", None, 0.0, patch


def read_placed(image: Image, die: LabelledDie) -> tuple[str, int | None, float]:
    """The pip count alone, the die placed by hand: the patch at the label's centre, at each turn of
    ``TURNS_DEG``, its scale the label box's for a die at that turn; the surest reading of them (what the reader
    would say if the top face's place, turn and size were found right). Outcome right, wrong or pips unsure."""
    best = None
    for turn in TURNS_DEG:
        t = math.radians(turn)
        px_per_mm = die.size_px / ((abs(math.cos(t)) + abs(math.sin(t))) * D6_SIDE_MM)
        reading = read_d6_face(face_patch(image, die.centre_px, float(turn), px_per_mm))
        if reading is not None and (best is None or reading.confidence > best.confidence):
            best = reading
    if best is None:
        return "pips unsure", None, 0.0
    return ("right" if best.value == die.value else "wrong"), best.value, best.confidence


def _counts() -> dict[str, Any]:
    return {"right": 0, "wrong": 0, "asked": 0}


def _row() -> dict[str, Any]:
    return {"photos": 0, "dice": 0, **_counts(), "baseline_right": 0, "asked_why": dict.fromkeys(ASKED, 0),
            "placed": _counts(), "by_face": {str(v): {"dice": 0, "right": 0, "placed_right": 0} for v in range(1, 7)},
            "misreads": [], "placed_misreads": []}


def run_file(path: Path, limit: int | None, crops: Path | None, prefix: str,
             corrections: dict[tuple[str, int], tuple[int, int]] | None = None) -> dict[str, Any]:
    row = _row()
    row["labels_corrected"] = len(corrections or {})
    scales = []
    for photo in photos(path, limit, corrections):
        row["photos"] += 1
        scale = photo_scale(photo)
        scales.append(scale)
        for k, die in enumerate(photo.dice):
            row["dice"] += 1
            face = row["by_face"][str(die.value)]
            face["dice"] += 1
            baseline = face_patch(photo.image, die.centre_px, -90.0, scale, out_px_per_mm=BASELINE_PX_PER_MM)
            row["baseline_right"] += baseline_count(baseline) == die.value
            outcome, value, confidence, patch = read_die(photo.image, die, scale)
            where = {"photo": photo.name, "die": k, "truth": die.value}
            if outcome == "right":
                row["right"] += 1
                face["right"] += 1
            elif outcome == "wrong":
                row["wrong"] += 1
                row["misreads"].append({**where, "read": value, "confidence": round(confidence, 3)})
            else:
                row["asked"] += 1
                row["asked_why"][outcome] += 1
            placed, placed_value, placed_confidence = read_placed(photo.image, die)
            row["placed"]["asked" if placed == "pips unsure" else placed] += 1
            face["placed_right"] += placed == "right"
            if placed == "wrong":
                row["placed_misreads"].append({**where, "read": placed_value,
                                               "confidence": round(placed_confidence, 3)})
            if crops is not None and outcome != "right":
                crops.mkdir(parents=True, exist_ok=True)
                window, _corner = _window(photo.image, die)
                tag = f"{prefix}-{Path(photo.name).stem}-{k}-{outcome.replace(' ', '_')}-{die.value}-{value}"
                cv2.imwrite(str(crops / f"{tag}.png"), window)
                if patch is not None:
                    cv2.imwrite(str(crops / f"{tag}-patch.png"), patch)
    n = max(row["dice"], 1)
    row["rate"] = row["right"] / n
    row["baseline_rate"] = row["baseline_right"] / n
    row["placed"]["rate"] = row["placed"]["right"] / n
    row["px_per_mm_median"] = float(np.median(scales)) if scales else None
    return row


def _render_plain() -> float | None:
    """The plain-light d6 rate of the last render bench, to print beside (None if it has not been run)."""
    path = REPO / "bench" / "results" / "dice.json"
    try:
        return float(json.loads(path.read_text(encoding="utf-8"))["conditions"]["plain"]["kinds"]["d6"]["rate"])
    except (OSError, KeyError, ValueError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_PHOTOS} photos of each file")
    add_fetch_arguments(parser, DATA, "photos")
    parser.add_argument("--manifest", default=str(MANIFEST), help="the corpus manifest (default bench/dice_real.json)")
    parser.add_argument("--crops", help="write every die not read right (its window and patch) here, to look at")
    parser.add_argument("--out", help="folder for the JSON result (default bench/results)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    manifest = json.loads(Path(args.manifest).read_text(encoding="utf-8"))
    clones = clone_dirs(parser, args.from_git, "nell-byler/dice_detection")
    data = Path(args.data)
    crops = Path(args.crops) if args.crops else None
    jobs = []
    missing = []
    for key, source in manifest["sources"].items():
        for entry in source["files"]:
            path = fetch_file({"repo": source["repo"], "commit": source["commit"], **entry}, data, clones,
                              args.download)
            if path is None:
                missing.append(f"{source['repo']}:{entry['path']}")
            else:
                jobs.append((key, entry["split"], path, entry["name"], corrections_of(source, entry["name"])))
    if missing:
        print(f"the real-photo corpus is not in {data}: missing {', '.join(missing)}. Run once with --download "
              "(needs the network) or --from-git OWNER/NAME=GIT_DIR (a local clone).", file=sys.stderr)
        return 2
    rows: dict[str, dict[str, Any]] = {}
    for i, (key, split, path, name, corrections) in enumerate(jobs):
        rows[f"{key} {split}"] = run_file(path, QUICK_PHOTOS if args.quick else None, crops, Path(name).stem,
                                          corrections)
        progress(i + 1, len(jobs), "files")
    total: dict[str, Any] = {k: sum(r[k] for r in rows.values())
                             for k in ("photos", "dice", "right", "wrong", "asked", "baseline_right")}
    total["placed"] = {k: sum(r["placed"][k] for r in rows.values()) for k in ("right", "wrong", "asked")}
    n = max(total["dice"], 1)
    total["rate"] = total["right"] / n
    total["baseline_rate"] = total["baseline_right"] / n
    total["placed"]["rate"] = total["placed"]["right"] / n
    render = _render_plain()
    result = {"benchmark": "dice_real", "quick": args.quick, "rows": rows, "total": total, "target": TARGET,
              "met": total["rate"] >= TARGET and total["wrong"] == 0, "renders_plain_d6_rate": render,
              "sources": {k: {"repo": s["repo"], "commit": s["commit"], "licence": s["licence"]}
                          for k, s in manifest["sources"].items()},
              "machine": machine()}
    print(f"\n{'source split':18} {'photos':>7} {'dice':>6} {'right':>7} {'asked':>6} {'wrong':>6} {'baseline':>9}"
          f" {'placed: right':>14} {'asked':>6} {'wrong':>6}  asked because")
    for name, r in rows.items():
        why = ", ".join(f"{k} {v}" for k, v in r["asked_why"].items() if v)
        print(f"{name:18} {r['photos']:7d} {r['dice']:6d} {r['rate']:7.3f} {r['asked']:6d} {r['wrong']:6d} "
              f"{r['baseline_rate']:9.3f} {r['placed']['rate']:14.3f} {r['placed']['asked']:6d} "
              f"{r['placed']['wrong']:6d}  {why}")
    beside = f"; renders, plain light: {render:.3f}" if render is not None else ""
    print(f"all: {total['dice']} dice, right {total['rate']:.3f}, wrong {total['wrong']}, baseline "
          f"{total['baseline_rate']:.3f}, placed by hand {total['placed']['rate']:.3f} (wrong "
          f"{total['placed']['wrong']}){beside}; target {TARGET} → met: {result['met']}")
    print(f"wrote {write_result('dice_real', result, args.out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
