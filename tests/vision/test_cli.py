"""``hexa vision --images DIR --jsonl -`` on rendered images, and the CLI's clear errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.board_spec import BoardSpec
from calibration.calibration_file import CalibrationQuality, CalibrationRecord, save_calibration
from calibration.camera_model import CameraModel
from engine.cli.main import main as hexa
from vision.synthetic.effects import Effects
from vision.synthetic.renderer import RenderedFrame, TableRenderer
from vision.synthetic.scene import Figure


def _write_frames(renderer: TableRenderer, folder: Path) -> list[RenderedFrame]:
    rng = np.random.default_rng(11)
    frames = []
    for k, name in enumerate(["b.png", "a.jpg", "c.png"]):  # written out of order on purpose
        figures = tuple(Figure(k * 10 + i, 120.0 + 90 * i, 150.0 + 60 * k, 30.0 * i, 22.0, 30.0) for i in range(4))
        frame = renderer.render(figures, effects=Effects(), rng=rng)
        cv2.imwrite(str(folder / name), frame.image)
        frames.append(frame)
    return frames


def _calibration_file(camera: CameraModel, path: Path) -> Path:
    quality = CalibrationQuality(0.2, 0.3, 0.01, 12, "good")
    return save_calibration(CalibrationRecord(camera, BoardSpec(), quality), path)


def test_images_to_jsonl_in_file_name_order(renderer: TableRenderer, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    frames = dict(zip(["b.png", "a.jpg", "c.png"], _write_frames(renderer, tmp_path), strict=True))
    assert hexa(["vision", "--images", str(tmp_path), "--jsonl", "-"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["frame"] for line in lines] == ["a.jpg", "b.png", "c.png"]
    for line in lines:
        truth = {t.marker_id: t for t in frames[line["frame"]].truth}
        assert {m["id"] for m in line["markers"]} == set(truth)
        for m in line["markers"]:
            assert "x_mm" not in m  # no calibration, no millimetres
            centre = truth[m["id"]].centre_px
            assert math.hypot(m["x_px"] - centre[0], m["y_px"] - centre[1]) < 0.6


def test_images_with_a_calibration_give_millimetres(renderer: TableRenderer, camera: CameraModel, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    images = tmp_path / "images"
    images.mkdir()
    frames = _write_frames(renderer, images)
    (images / "zz-broken.png").write_bytes(b"\x89PNG but not really")
    calibration = _calibration_file(camera, tmp_path / "calibration.json")
    out = tmp_path / "out.jsonl"
    code = hexa(["vision", "--images", str(images), "--calibration", str(calibration), "--marker-height", "30",
                 "--jsonl", str(out)])
    assert code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[-1]["frame"] == "zz-broken.png" and "not a readable image" in lines[-1]["error"]
    truth = {t.marker_id: t for f in frames for t in f.truth}
    errors = [math.hypot(m["x_mm"] - truth[m["id"]].x_mm, m["y_mm"] - truth[m["id"]].y_mm)
              for line in lines[:-1] for m in line["markers"]]
    assert len(errors) == 12
    assert max(errors) < 0.6


@pytest.mark.parametrize(("argv", "message"), [
    (["--images", "/no/such/folder", "--jsonl", "-"], "image folder /no/such/folder does not exist"),
    (["--video", "/no/such.mp4", "--jsonl", "-"], "video file /no/such.mp4 does not exist"),
    (["--images", ".", "--jsonl", "-", "--dictionary", "9X9_1"], "unknown ArUco dictionary '9X9_1'"),
    (["--images", ".", "--jsonl", "-", "--height", "3:30"], "write it as ID=MM"),
    (["--images", ".", "--calibration", "/no/calibration.json", "--jsonl", "-"], "Run 'hexa calibrate"),
    (["--images", ".", "--jsonl", "-", "--min-tag-px", "50", "--max-tag-px", "20"],
     "the smallest tag side must be above 0 and below the largest"),
])
def test_bad_input_gives_a_clear_error_and_exit_code_2(argv: list[str], message: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert hexa(["vision", *argv]) == 2
    assert message in capsys.readouterr().err


def test_opencvs_detector_can_be_chosen_and_finds_the_same_tags(renderer: TableRenderer, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    frames = dict(zip(["b.png", "a.jpg", "c.png"], _write_frames(renderer, tmp_path), strict=True))
    assert hexa(["vision", "--images", str(tmp_path), "--jsonl", "-", "--detector", "opencv"]) == 0
    for line in (json.loads(text) for text in capsys.readouterr().out.splitlines()):
        assert {m["id"] for m in line["markers"]} == {t.marker_id for t in frames[line["frame"]].truth}


def test_a_camera_that_cannot_be_opened_is_said_before_the_missing_calibration(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert hexa(["vision", "--camera", "/dev/no-such-camera"]) == 2
    err = capsys.readouterr().err
    assert "camera /dev/no-such-camera cannot be opened" in err and "--calibration" not in err


def test_a_video_without_calibration_explains_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    video = tmp_path / "table.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, (64, 48))
    writer.write(np.zeros((48, 64, 3), np.uint8))
    writer.release()
    assert hexa(["vision", "--video", str(video)]) == 2
    assert "--calibration FILE" in capsys.readouterr().err


def test_a_video_is_tracked_on_its_own_clock(renderer: TableRenderer, camera: CameraModel, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, camera.image_size)
    assert writer.isOpened()
    figures = tuple(Figure(i, 150.0 + 100 * i, 200.0, 0.0, 22.0, 0.0) for i in range(3))
    image = renderer.render(figures, effects=Effects()).image
    for _ in range(12):
        writer.write(image)
    writer.release()
    calibration = _calibration_file(camera, tmp_path / "calibration.json")
    assert hexa(["vision", "--video", str(video), "--calibration", str(calibration), "--jsonl", "-"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 12
    assert all("state" not in m for m in lines[0]["markers"])  # not yet confirmed by a second frame
    assert [m["state"] for m in lines[1]["markers"]] == ["moving"] * 3
    assert [m["state"] for m in lines[-1]["markers"]] == ["settled"] * 3  # 0.37 s of video later
    assert sorted(m["id"] for m in lines[-1]["markers"]) == [0, 1, 2]


def test_heights_come_from_a_toml_file(renderer: TableRenderer, camera: CameraModel, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    images = tmp_path / "images"
    images.mkdir()
    frames = _write_frames(renderer, images)  # every tag 30 mm up
    heights = tmp_path / "heights.toml"
    heights.write_text("[heights]\ndefault = 30.0\n0 = 30\n", encoding="utf-8")
    calibration = _calibration_file(camera, tmp_path / "calibration.json")
    assert hexa(["vision", "--images", str(images), "--calibration", str(calibration), "--heights", str(heights),
                 "--jsonl", "-"]) == 0
    truth = {t.marker_id: t for f in frames for t in f.truth}
    for line in capsys.readouterr().out.splitlines():
        for m in json.loads(line)["markers"]:
            assert m["height_mm"] == 30.0
            assert math.hypot(m["x_mm"] - truth[m["id"]].x_mm, m["y_mm"] - truth[m["id"]].y_mm) < 0.6
    heights.write_text("[heights]\nknight = 30\n", encoding="utf-8")
    assert hexa(["vision", "--images", str(images), "--heights", str(heights), "--jsonl", "-"]) == 2
    assert "'knight' is not a marker id" in capsys.readouterr().err


def test_synthetic_scenario_places_its_figures_on_their_start_hexes(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.scenario import load_scenario

    scenario = load_scenario("tutorial")
    # The synthetic table's first 0.25 s has a hand sweeping beside a figure, which keeps it from settling until the
    # hand is gone: 12 frames (0.4 s) see every figure settled.
    assert hexa(["vision", "--synthetic", "tutorial", "--fast", "--frames", "12", "--no-publish", "--jsonl", "-"]) == 0
    last = json.loads(capsys.readouterr().out.splitlines()[-1])
    seen = {m["id"]: m for m in last["markers"]}
    for figure in scenario.figures:
        x, y = scenario.layout.hex_to_mm(figure.start)
        m = seen[figure.marker_id]
        assert math.hypot(m["x_mm"] - x, m["y_mm"] - y) < 1.0
        assert m["height_mm"] > 0 and m["state"] == "settled"
    assert set(scenario.anchors) <= set(seen)  # the flat registration tags too


def test_an_unknown_scenario_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert hexa(["vision", "--synthetic", "no-such-scenario", "--fast", "--frames", "1", "--no-publish"]) == 2
    assert "no-such-scenario: no such scenario file or bundled scenario" in capsys.readouterr().err


def test_frames_of_another_size_than_the_calibration_say_so(renderer: TableRenderer, camera: CameraModel,
                                                            tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            caplog: pytest.LogCaptureFixture) -> None:
    images = tmp_path / "images"
    images.mkdir()
    frame = renderer.render(effects=Effects.clean()).image
    cv2.imwrite(str(images / "small.png"), cv2.resize(frame, (1280, 720), interpolation=cv2.INTER_AREA))
    calibration = _calibration_file(camera, tmp_path / "calibration.json")
    assert hexa(["vision", "--images", str(images), "--calibration", str(calibration), "--jsonl", "-"]) == 0
    captured = capsys.readouterr()
    [line] = [json.loads(x) for x in captured.out.splitlines()]
    assert "frame is 1280x720 but the calibration is for 1920x1080" in line["error"]
    assert line["markers"] and all("x_mm" not in m for m in line["markers"])
    assert "or recalibrate" in caplog.text


def test_a_jsonl_file_that_cannot_be_written_is_refused_by_name(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((48, 64, 3), np.uint8))
    out = tmp_path / "no-such-folder" / "out.jsonl"
    assert hexa(["vision", "--images", str(tmp_path), "--jsonl", str(out)]) == 2
    assert f"--jsonl {out}: cannot write it" in capsys.readouterr().err


def test_a_file_opencv_opens_but_cannot_decode_is_refused_by_name(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "table.png"  # OpenCV opens a .png as an image sequence, then decodes no frame of it
    junk.write_bytes(b"not a picture at all" * 50)
    assert hexa(["vision", "--video", str(junk), "--jsonl", "-"]) == 2
    assert f"video file {junk} holds no frame that can be decoded" in capsys.readouterr().err


def test_a_video_gives_every_frame_from_its_first(tmp_path: Path) -> None:
    from vision.sources import VideoFileSource

    video = tmp_path / "three.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, (64, 48))
    for level in (0, 120, 240):
        writer.write(np.full((48, 64, 3), level, np.uint8))
    writer.release()
    source = VideoFileSource(video)
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    source.close()
    assert [f.index for f in frames] == [0, 1, 2]
    assert [round(float(f.image.mean()) / 40) for f in frames] == [0, 3, 6]
