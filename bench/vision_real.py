"""Detection on real camera footage: our detector against OpenCV's default ``ArucoDetector``, frame by frame.

The corpus is public photos and videos of ArUco markers listed in ``bench/real_footage.json`` (source
repository, commit, path, sha256, licence, dictionary, the ids in the scene). The files are not in
git: they are cached in ``bench/data/real/`` and taken from a local clone of their repository
(``--from-git owner/name=GIT_DIR``) or downloaded from the commit's raw URL (``--download``); the
bench skips, saying so, what is not cached.

The default detector's detections are the reference: per frame, each of its detections is matched
to one of ours by id and position. Ours beyond the default are counted as found when their id is
in the scene and not read twice in one place (the listed files were checked by eye), and as
wrong ids otherwise. Also reported: how far our centres (where the diagonals cross) lie from the
mean of the default's corners, and from where the default's diagonals cross.

Usage: ``.venv/bin/python bench/vision_real.py [--quick] [--from-git owner/name=DIR] [--download] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from vision_corpus import REPO, machine, percentile, write_result

from vision.candidates import CandidateSettings
from vision.detection import DetectedMarker, MarkerDetector, OpenCVDefaultDetector, diagonal_intersection

MANIFEST = REPO / "bench" / "real_footage.json"
DATA = REPO / "bench" / "data" / "real"
QUICK_VIDEO_FRAMES = 10


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch_file(entry: dict[str, Any], data: Path, clones: dict[str, Path], download: bool) -> Path | None:
    """The cached copy of ``entry`` (fetched into ``data`` first if possible), or None if unavailable."""
    name = entry.get("name") or Path(entry["path"]).name
    target = data / name
    if target.exists() and _sha256(target.read_bytes()) == entry["sha256"]:
        return target
    blob: bytes | None = None
    if entry["repo"] in clones:
        run = subprocess.run(["git", "--git-dir", str(clones[entry["repo"]]), "cat-file", "blob",
                              f"{entry['commit']}:{entry['path']}"], capture_output=True, check=False)
        blob = run.stdout if run.returncode == 0 else None
    if blob is None and download:
        url = f"https://raw.githubusercontent.com/{entry['repo']}/{entry['commit']}/{entry['path']}"
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                blob = response.read()
        except OSError as error:
            print(f"  {name}: download failed ({error})", file=sys.stderr)
    if blob is None:
        return None
    if _sha256(blob) != entry["sha256"]:
        print(f"  {name}: sha256 differs from the manifest; not used", file=sys.stderr)
        return None
    data.mkdir(parents=True, exist_ok=True)
    target.write_bytes(blob)
    return target


def add_fetch_arguments(parser: argparse.ArgumentParser, data: Path, what: str) -> None:
    """The options that say where a public corpus's files come from: a local clone, the raw URLs, the cache."""
    parser.add_argument("--from-git", action="append", default=[], metavar="OWNER/NAME=GIT_DIR",
                        help="take the files of repository OWNER/NAME from this local clone (repeatable)")
    parser.add_argument("--download", action="store_true", help="download missing files from their raw URLs")
    parser.add_argument("--data", default=str(data),
                        help=f"cache folder for the {what} (default {data.relative_to(REPO)})")


def clone_dirs(parser: argparse.ArgumentParser, specs: list[str], example: str) -> dict[str, Path]:
    """``--from-git`` options as {owner/name: git directory}."""
    clones = {}
    for spec in specs:
        repo, _, folder = spec.partition("=")
        if not folder:
            parser.error(f"--from-git {spec!r}: give OWNER/NAME=GIT_DIR, e.g. {example}=/path/to/repo.git")
        clones[repo] = Path(folder)
    return clones


def scene_ids(spec: str | list[int]) -> set[int]:
    """``[1, 2]`` or ``"0-34"`` as a set of ids."""
    if isinstance(spec, str):
        lo, hi = spec.split("-")
        return set(range(int(lo), int(hi) + 1))
    return set(spec)


def dictionary(name: str, manifest: dict[str, Any], paths: dict[str, Path]) -> str | cv2.aruco.Dictionary | None:
    """A predefined dictionary's name, or a custom one read from its cached file (None if not cached)."""
    if name.startswith("DICT_"):
        return name
    if name not in paths:
        return None
    storage = cv2.FileStorage(str(paths[name]), cv2.FILE_STORAGE_READ)
    custom = cv2.aruco.Dictionary()
    custom.readDictionary(storage.root())
    return custom


def frames(path: Path, kind: str, limit: int | None) -> Iterator[NDArray[np.uint8]]:
    """Grey frames of an image (one) or a video (every frame, or the first ``limit``)."""
    if kind == "image":
        yield np.asarray(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE), dtype=np.uint8)
        return
    video = cv2.VideoCapture(str(path))
    count = 0
    while limit is None or count < limit:
        ok, image = video.read()
        if not ok:
            break
        count += 1
        yield np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    video.release()


def _side(m: DetectedMarker) -> float:
    return float(np.sqrt(abs(cv2.contourArea(m.corners_px.astype(np.float32)))))


def compare(reference: list[DetectedMarker], ours: list[DetectedMarker], ids: set[int]) -> dict[str, Any]:
    """Match ours to the reference by id and position; count found, beyond the reference, wrong; centres."""
    unused = list(range(len(ours)))
    found, offsets_mean, offsets_diagonal = 0, [], []
    for ref in reference:
        centre = np.asarray(diagonal_intersection(ref.corners_px))
        best = None
        for j in unused:
            if ours[j].marker_id == ref.marker_id and np.linalg.norm(ours[j].centre_px - centre) < _side(ref) / 2:
                best = j
                break
        if best is None:
            continue
        unused.remove(best)
        found += 1
        mine = np.asarray(ours[best].centre_px)
        offsets_mean.append(float(np.linalg.norm(mine - ref.corners_px.mean(axis=0))))
        offsets_diagonal.append(float(np.linalg.norm(mine - centre)))
    beyond = wrong = 0
    kept: list[DetectedMarker] = []
    for j in unused:
        m = ours[j]
        twice = any(k.marker_id == m.marker_id and np.linalg.norm(np.subtract(k.centre_px, m.centre_px)) < _side(m)
                    for k in kept)
        if m.marker_id in ids and not twice:
            beyond += 1
            kept.append(m)
        else:
            wrong += 1
    return {"found": found, "beyond": beyond, "wrong": wrong, "offsets_mean": offsets_mean,
            "offsets_diagonal": offsets_diagonal}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_VIDEO_FRAMES} frames of each video")
    add_fetch_arguments(parser, DATA, "footage")
    parser.add_argument("--out", help="folder for the JSON result (default bench/results)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    clones = clone_dirs(parser, args.from_git, "opencv/opencv_contrib")
    data = Path(args.data)
    dict_paths = {}
    for key, entry in manifest["dictionaries"].items():
        path = fetch_file({"name": key + ".yml", **entry}, data, clones, args.download)
        if path is not None:
            dict_paths[key] = path
    rows: dict[str, dict[str, Any]] = {}
    skipped = []
    times: dict[str, list[float]] = {"ours": [], "opencv default": []}
    all_mean: list[float] = []
    all_diagonal: list[float] = []
    for entry in manifest["files"]:
        path = fetch_file(entry, data, clones, args.download)
        chosen = dictionary(entry["dictionary"], manifest, dict_paths)
        if path is None or chosen is None:
            skipped.append(entry["name"])
            continue
        tags = CandidateSettings(max_side_px=float(entry.get("max_tag_px", CandidateSettings().max_side_px)))
        ours_detector, default = MarkerDetector(chosen, tags), OpenCVDefaultDetector(chosen)
        ids = scene_ids(entry["scene_ids"])
        row: dict[str, float] = {"frames": 0, "reference": 0, "found": 0, "beyond": 0, "wrong": 0, "frames_short": 0,
               "default_wrong": 0}
        for gray in frames(path, entry["kind"], QUICK_VIDEO_FRAMES if args.quick else None):
            start = time.thread_time()
            reference = default.detect(gray)
            middle = time.thread_time()
            ours = ours_detector.detect(gray)
            times["opencv default"].append(middle - start)
            times["ours"].append(time.thread_time() - middle)
            result = compare(reference, ours, ids)
            row["frames"] += 1
            row["reference"] += len(reference)
            row["default_wrong"] += sum(1 for m in reference if m.marker_id not in ids)
            for key in ("found", "beyond", "wrong"):
                row[key] += result[key]
            row["frames_short"] += int(result["found"] < len(reference))
            all_mean += result["offsets_mean"]
            all_diagonal += result["offsets_diagonal"]
        row["rate"] = row["found"] / max(row["reference"], 1)
        rows[entry["name"]] = row
    if not rows:
        print(f"no real footage cached in {data}: skipped {len(skipped)} files (fetch them with --from-git or "
              "--download; sources in bench/real_footage.json)")
    totals = {k: sum(r[k] for r in rows.values())
              for k in ("frames", "reference", "found", "beyond", "wrong", "frames_short", "default_wrong")}
    centres = {"ours_to_mean_of_default_corners_px": {"median": percentile(all_mean, 50),
                                                      "p95": percentile(all_mean, 95)},
               "ours_to_default_diagonals_px": {"median": percentile(all_diagonal, 50),
                                                "p95": percentile(all_diagonal, 95)}}
    cpu = {k: {"p50_ms": percentile(v, 50) * 1000, "p95_ms": percentile(v, 95) * 1000} for k, v in times.items()}
    result = {"benchmark": "vision_real", "quick": args.quick, "files": rows, "skipped": skipped, "totals": totals,
              "centres": centres, "cpu_time": cpu,
              "met": {"every reference detection": totals["found"] == totals["reference"],
                      "no wrong ids": totals["wrong"] == 0},
              "machine": machine()}
    print(f"\n{'file':28} {'frames':>6} {'default':>8} {'ours':>6} {'beyond':>7} {'wrong':>6} {'short':>6}")
    for name, row in rows.items():
        print(f"{name:28} {row['frames']:6d} {row['reference']:8d} {row['found']:6d} {row['beyond']:7d} "
              f"{row['wrong']:6d} {row['frames_short']:6d}")
    if rows:
        print(f"{'all':28} {totals['frames']:6d} {totals['reference']:8d} {totals['found']:6d} {totals['beyond']:7d} "
              f"{totals['wrong']:6d} {totals['frames_short']:6d}")
        to_mean = centres["ours_to_mean_of_default_corners_px"]["median"]
        to_diagonals = centres["ours_to_default_diagonals_px"]["median"]
        print(f"centres: ours to the mean of the default's corners {to_mean:.2f} px median; "
              f"to where the default's diagonals cross {to_diagonals:.2f} px")
        print(f"CPU time per frame p50: ours {cpu['ours']['p50_ms']:.2f} ms, "
              f"default {cpu['opencv default']['p50_ms']:.2f} ms")
    if skipped:
        print(f"skipped (not cached): {', '.join(skipped)}")
    print(f"wrote {write_result('vision_real', result, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
