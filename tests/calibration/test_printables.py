"""Printables: rasterise the PDFs, detect the board and tags, measure their sizes against the spec."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest
from numpy.typing import NDArray

from calibration.anchor_tags import ANCHOR_IDS
from calibration.board_spec import BoardSpec, default_spec, dictionary_by_name
from calibration.cli import print_main
from calibration.detection import BoardDetector
from calibration.printables.tag_sheet import parse_ids
from calibration.printables.zone_mat import zone_mat_geometry

DPI = 200.0
PX_PER_MM = DPI / 25.4


def _pages(path: Path, dpi: float = DPI) -> list[NDArray[np.uint8]]:
    doc = pdfium.PdfDocument(str(path))
    try:
        out = []
        for i in range(len(doc)):
            img = doc[i].render(scale=dpi / 72.0, grayscale=True).to_numpy()
            out.append(np.ascontiguousarray(img if img.ndim == 2 else img[..., 0]))
        return out
    finally:
        doc.close()


def _scale_px_per_mm(obj_mm: NDArray[np.float64], img_px: NDArray[np.float64]) -> float:
    m, _ = cv2.estimateAffinePartial2D(obj_mm.astype(np.float32), img_px.astype(np.float32))
    return float(np.hypot(m[0, 0], m[1, 0]))


def _detect_tags(page: NDArray[np.uint8], dictionary: str) -> dict[int, NDArray[np.float64]]:
    detector = cv2.aruco.ArucoDetector(dictionary_by_name(dictionary), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(page)
    if ids is None:
        return {}
    return {int(i): np.asarray(c, dtype=np.float64).reshape(4, 2) for i, c in zip(ids.reshape(-1), corners,
                                                                                    strict=True)}


def _side_mm(corners: NDArray[np.float64]) -> float:
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return float(sides.mean()) / PX_PER_MM


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_grid_pdf_is_detected_at_true_scale(paper: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "grid.pdf"
    assert print_main(["grid", "--paper", paper, "-o", str(out)]) == 0
    spec_json = json.loads(capsys.readouterr().out)
    assert set(spec_json) == {"dictionary", "squares_x", "squares_y", "square_mm", "marker_mm", "paper"}
    assert spec_json["paper"] == paper and spec_json["dictionary"] == "DICT_5X5_100"
    spec = BoardSpec.from_json(spec_json)
    assert spec == default_spec(paper)
    (page,) = _pages(out)
    view = BoardDetector(spec).detect(page)
    assert view is not None and view.count == spec.corner_count
    obj = np.asarray(spec.make_board().getChessboardCorners(), dtype=np.float64)[view.ids][:, :2]
    measured_square = spec.square_mm * _scale_px_per_mm(obj, view.corners_px) / PX_PER_MM
    assert measured_square == pytest.approx(spec.square_mm, rel=0.005)
    tags = _detect_tags(page, spec.dictionary)
    assert len(tags) == (spec.squares_x * spec.squares_y) // 2
    for corners in tags.values():
        assert _side_mm(corners) == pytest.approx(spec.marker_mm, rel=0.005)


def test_grid_pdf_page_is_the_paper_size(tmp_path: Path) -> None:
    out = tmp_path / "grid.pdf"
    assert print_main(["grid", "-o", str(out)]) == 0
    doc = pdfium.PdfDocument(str(out))
    w_pt, h_pt = doc[0].get_size()
    doc.close()
    assert (w_pt * 25.4 / 72.0, h_pt * 25.4 / 72.0) == (pytest.approx(297.0, abs=0.05), pytest.approx(210.0, abs=0.05))


def test_marker_sheet_has_every_id_at_its_size(tmp_path: Path) -> None:
    out = tmp_path / "markers.pdf"
    assert print_main(["markers", "--ids", "0-23", "-o", str(out)]) == 0
    found: dict[int, NDArray[np.float64]] = {}
    for page in _pages(out):
        found.update(_detect_tags(page, "DICT_4X4_100"))
    assert sorted(found) == list(range(24))
    for corners in found.values():
        assert _side_mm(corners) == pytest.approx(25.0, rel=0.005)


def test_big_marker_sets_spill_onto_more_pages(tmp_path: Path) -> None:
    out = tmp_path / "markers.pdf"
    assert print_main(["markers", "--ids", "0-59", "--size", "40", "--dictionary", "DICT_5X5_100",
                       "-o", str(out)]) == 0
    pages = _pages(out, dpi=120.0)
    assert len(pages) > 1
    found: set[int] = set()
    for page in pages:
        found |= set(_detect_tags(page, "DICT_5X5_100"))
    assert found == set(range(60))


def test_anchor_sheet_and_zone_mat(tmp_path: Path) -> None:
    anchors = tmp_path / "anchors.pdf"
    assert print_main(["anchors", "-o", str(anchors)]) == 0
    found: set[int] = set()
    for page in _pages(anchors):
        found |= set(_detect_tags(page, "DICT_4X4_100"))
    assert found == set(ANCHOR_IDS)
    mat = tmp_path / "zones.pdf"
    assert print_main(["zones", "--paper", "a4", "-o", str(mat)]) == 0
    (page,) = _pages(mat)
    tags = _detect_tags(page, "DICT_4X4_100")
    geo = zone_mat_geometry("a4")
    assert set(tags) == set(geo.anchors)
    # Tag centres sit where the geometry says (mat frame + origin on the page), to within 0.3 mm.
    x0, y0 = geo.mat_origin_on_page
    for marker_id, corners in tags.items():
        centre_mm = corners.mean(axis=0) / PX_PER_MM
        expected = np.add(geo.anchors[marker_id], (x0, y0))
        assert np.linalg.norm(centre_mm - expected) < 0.3
    assert sorted(geo.zone_centres) == list(range(1, 10))
    assert geo.zone_centres[7][1] < geo.zone_centres[1][1] and geo.zone_centres[1][0] < geo.zone_centres[3][0]


def _page_mm(path: Path) -> tuple[float, float]:
    doc = pdfium.PdfDocument(str(path))
    try:
        w_pt, h_pt = doc[0].get_size()
    finally:
        doc.close()
    return round(w_pt * 25.4 / 72.0), round(h_pt * 25.4 / 72.0)


@pytest.mark.parametrize("argv", [["grid"], ["markers", "--ids", "0-3"], ["anchors"], ["zones"]])
def test_every_sheet_defaults_to_its_name_on_a4(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Without -o and --paper every sheet writes SHEET.pdf in the current folder on A4, as the README says."""
    monkeypatch.chdir(tmp_path)
    assert print_main(argv) == 0
    out = tmp_path / f"{argv[0]}.pdf"
    said = capsys.readouterr()
    assert out.is_file() and f"Wrote {argv[0]}.pdf" in said.out + said.err
    assert sorted(_page_mm(out)) == [210, 297]


def test_bad_print_requests_are_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "m.pdf")
    assert print_main(["markers", "--ids", "85-95", "-o", out]) == 2
    assert "reserved for board anchors" in capsys.readouterr().err
    assert print_main(["markers", "--ids", "100-120", "-o", out]) == 2
    assert "not in DICT_4X4_100" in capsys.readouterr().err
    assert print_main(["markers", "--ids", "a-b", "-o", out]) == 2
    assert "cannot read ids" in capsys.readouterr().err
    assert print_main(["markers", "--ids", "1", "--dictionary", "DICT_9X9", "-o", out]) == 2
    assert "unknown dictionary" in capsys.readouterr().err
    assert print_main(["markers", "--ids", "1", "--size", "400", "-o", out]) == 2
    assert not Path(out).exists()
    assert print_main(["anchors", "--ids", "3", "-o", out]) == 2


def test_parse_ids() -> None:
    assert parse_ids("0-3, 7,5-6,3") == [0, 1, 2, 3, 7, 5, 6]
    with pytest.raises(ValueError, match="cannot read"):
        parse_ids("5-2")


def test_figure_tags_carry_a_back_mark_and_anchors_none() -> None:
    from calibration.printables.tag_sheet import tag_sheet_pdf

    def drawn(back: bool) -> bytes:
        return bytes(tag_sheet_pdf([0], 25.0, "DICT_4X4_100", "a4", "t", "id {id}", back_mark=back).output())

    plain, marked = drawn(False), drawn(True)
    assert marked != plain  # the triangle under the label, pointing away from the tag's top


@pytest.mark.parametrize("sheet", ["grid", "markers", "zones"])
def test_sheets_print_their_captions_in_japanese_with_the_font_embedded(sheet: str, tmp_path: Path) -> None:
    from engine.i18n import speaking

    out = tmp_path / f"{sheet}.pdf"
    argv = [sheet, "-o", str(out)] + (["--ids", "0-3"] if sheet == "markers" else [])
    with speaking("ja"):
        assert print_main(argv) == 0
    raw = out.read_bytes()
    assert b"/FontFile2" in raw, "the TrueType font is not embedded"
    text = pdfium.PdfDocument(str(out))[0].get_textpage().get_text_range()
    assert "確認バー" in text and "実寸で印刷" in text, text


def test_the_live_window_draws_japanese_text() -> None:
    from calibration.window_text import draw_lines, wrap_text

    image = np.zeros((60, 400, 3), np.uint8)
    draw_lines(image, [("シートを平らに置いてください", (255, 255, 255))], (4, 4), 24, 30)
    assert int((image > 128).sum()) > 300, "nothing was drawn"
    lines = wrap_text("毎回ちがう向きに傾け、少しのあいだ止めてください。", 24, 200)
    assert len(lines) > 1 and "".join(lines) == "毎回ちがう向きに傾け、少しのあいだ止めてください。"
