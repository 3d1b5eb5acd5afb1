"""bench/dice_real.py runs --quick: on a drawn photo in the corpus's own file format (always, offline), and on
the real photos when their files are cached (they are fetched from their public repository, never kept in git).

Timing is never asserted; what is: every labelled die is counted once, and none is read as another face.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import struct
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.test_bench_quick import BENCH
from vision.dice.faces import PIP_RADIUS, PIP_SPOT, PIPS

REAL_DATA = BENCH / "data" / "dice_real"


def _bench() -> Any:
    """bench/dice_real.py as a module (imported by name: its dataclasses need their module registered)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module("dice_real")


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _feature(values: bytes | list[float] | list[int]) -> bytes:
    if isinstance(values, bytes):
        return _field(1, _field(1, values))
    if values and isinstance(values[0], float):
        return _field(2, _field(1, struct.pack(f"<{len(values)}f", *values)))
    return _field(3, _field(1, b"".join(_varint(int(v)) for v in values)))


def _example(features: dict[str, bytes | list[float] | list[int]]) -> bytes:
    entries = b"".join(_field(1, _field(1, name.encode()) + _field(2, _feature(v))) for name, v in features.items())
    return _field(1, entries)


def _tfrecord(records: list[bytes]) -> bytes:
    return b"".join(struct.pack("<Q", len(r)) + b"\0" * 4 + r + b"\0" * 4 for r in records)  # CRCs are not read


def _drawn_photo(rng: np.random.Generator) -> tuple[bytes, list[int], list[tuple[float, float, float, float]]]:
    """A 640×640 photo of six white dice with black pips on grey card, one of each face, each at its own turn."""
    size, side = 640, 40.0
    image = np.full((size, size, 3), (168, 172, 175), np.float32)
    image += rng.normal(0.0, 2.0, image.shape)
    values, boxes = [], []
    for value, (cx, cy) in zip(range(1, 7), [(140, 160), (320, 150), (500, 170), (150, 450), (330, 470),
                                              (490, 440)], strict=True):
        turn = math.radians(float(rng.uniform(0.0, 90.0)))
        u, v = np.array([math.cos(turn), math.sin(turn)]), np.array([-math.sin(turn), math.cos(turn)])
        half = side / 2.0
        corners = np.array([(cx, cy) + half * (sx * u + sy * v) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), (236, 238, 240), cv2.LINE_AA)
        for px, py in PIPS[value]:
            centre = (cx, cy) + half * PIP_SPOT * (px * u + py * v)
            cv2.circle(image, (round(centre[0]), round(centre[1])), round(half * PIP_RADIUS), (30, 30, 30), -1,
                       cv2.LINE_AA)
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        values.append(value)
        boxes.append((x0 / size, y0 / size, x1 / size, y1 / size))
    photo = cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (0, 0), 0.8)
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return jpeg.tobytes(), values, boxes


def _check(result: dict[str, Any]) -> None:
    assert result["benchmark"] == "dice_real" and result["quick"] is True
    total = result["total"]
    assert total["right"] + total["asked"] + total["wrong"] == total["dice"] > 0
    for name, row in result["rows"].items():
        assert row["right"] + row["asked"] + row["wrong"] == row["dice"], name
        assert sum(row["asked_why"].values()) == row["asked"], name
        assert sum(row["placed"][k] for k in ("right", "asked", "wrong")) == row["dice"], name
        assert 0.0 <= row["baseline_rate"] <= 1.0
    assert total["wrong"] == 0, result["rows"]  # never a silent misread
    assert result["machine"]["cores"] >= 1


def test_drawn_photo_in_the_corpus_format_is_read_through_the_service_steps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(30)
    records = []
    for k in range(2):
        jpeg, values, boxes = _drawn_photo(rng)
        records.append(_example({
            "image/filename": f"drawn_{k}.jpg".encode(), "image/encoded": jpeg,
            "image/object/bbox/xmin": [b[0] for b in boxes], "image/object/bbox/ymin": [b[1] for b in boxes],
            "image/object/bbox/xmax": [b[2] for b in boxes], "image/object/bbox/ymax": [b[3] for b in boxes],
            "image/object/class/label": values}))
    data = tmp_path / "data"
    data.mkdir()
    blob = _tfrecord(records)
    (data / "drawn.record").write_bytes(blob)
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"sources": {"drawn": {
        "repo": "nobody/nothing", "commit": "0" * 40, "licence": "drawn by this test",
        "files": [{"name": "drawn.record", "split": "test", "path": "drawn.record",
                   "sha256": hashlib.sha256(blob).hexdigest()}]}}}))
    assert _bench().main(["--quick", "--manifest", str(manifest), "--data", str(data), "--out", str(tmp_path)]) == 0
    assert f"wrote {tmp_path / 'dice_real.json'}" in capsys.readouterr().out
    result = json.loads((tmp_path / "dice_real.json").read_text())
    _check(result)
    row = result["rows"]["drawn test"]
    assert row["photos"] == 2 and row["dice"] == 12
    # Clean dice on plain card: every face read, each its labelled value; only a lone pip may be asked, as the
    # service asks a 1 on a top that measures smaller than a d6's (a d10's numeral can look like one).
    assert row["wrong"] == 0, row
    assert all(counts["right"] == counts["dice"] for face, counts in row["by_face"].items() if face != "1"), row
    assert row["right"] >= 12 - row["by_face"]["1"]["dice"], row
    assert row["placed"]["right"] == 12 and row["baseline_right"] == 12


def test_missing_corpus_is_named_with_the_way_to_fetch_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    assert _bench().main(["--quick", "--data", str(tmp_path / "empty"), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "nell-byler/dice_detection:tfrecords/test.record" in err and "--download" in err and "--from-git" in err


def test_real_photos_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = json.loads((BENCH / "dice_real.json").read_text())
    names = [f["name"] for s in manifest["sources"].values() for f in s["files"]]
    if not all((REAL_DATA / name).exists() for name in names):
        pytest.skip("the real-photo corpus is not cached in bench/data/dice_real/ (it is never in git): run "
                    "bench/dice_real.py --download once (network), or --from-git nell-byler/dice_detection=GIT_DIR")
    assert _bench().main(["--quick", "--out", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "dice_real.json").read_text())
    _check(result)
    assert result["total"]["photos"] == 4 * len(names)


def test_label_corrections_replace_the_face_given_and_must_fit_the_file() -> None:
    bench = _bench()
    source = {"corrections": [{"file": "a.record", "photo": "p.jpg", "die": 1, "label": 2, "face": 3, "why": "seen"},
                              {"file": "b.record", "photo": "p.jpg", "die": 0, "label": 5, "face": 6, "why": "seen"}]}
    corrections = bench.corrections_of(source, "a.record")
    assert corrections == {("p.jpg", 1): (2, 3)}
    box = (0.0, 0.0, 10.0, 10.0)
    dice = (bench.LabelledDie(4, box), bench.LabelledDie(2, box))
    assert [d.value for d in bench._corrected("p.jpg", dice, corrections)] == [4, 3]
    assert [d.value for d in bench._corrected("q.jpg", dice, corrections)] == [4, 2]
    with pytest.raises(ValueError, match=r"p\.jpg die 1"):
        bench._corrected("p.jpg", (dice[0], bench.LabelledDie(5, box)), corrections)


def test_the_manifest_corrections_name_their_files() -> None:
    manifest = json.loads((BENCH / "dice_real.json").read_text())
    for source in manifest["sources"].values():
        files = {f["name"] for f in source["files"]}
        for c in source.get("corrections", ()):
            assert c["file"] in files and c["label"] != c["face"] and c["why"], c
