"""``hexa print tray``: the tray mat's tags are detected at the places the reader expects, in both languages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from calibration.cli import print_main
from calibration.printables.tray_mat import tray_origin_on_page
from calibration.tray_spec import tray_spec
from tests.calibration.test_printables import PX_PER_MM, _detect_tags, _pages


@pytest.mark.parametrize(("paper", "tray"), [("a4", "tray"), ("letter", "tray2")])
def test_tray_mat_tags_sit_where_the_reader_expects_them(paper: str, tray: str, tmp_path: Path) -> None:
    out = tmp_path / "tray.pdf"
    assert print_main(["tray", "--paper", paper, "--tray", tray, "-o", str(out)]) == 0
    (page,) = _pages(out)
    assert page.shape[1] > page.shape[0], "landscape"
    spec = tray_spec(tray)
    tags = _detect_tags(page, "DICT_4X4_100")
    assert set(tags) == set(spec.tag_centres)
    x0, y0 = tray_origin_on_page(spec, paper)
    for marker_id, corners in tags.items():
        expected = np.array(spec.tag_corners(marker_id)) + np.array([x0, y0])
        assert np.abs(corners / PX_PER_MM - expected).max() < 0.4  # corner by corner, in the reader's order
    # The felt area is green where the dice go.
    doc = pdfium.PdfDocument(str(out))
    colour = doc[0].render(scale=100 / 72.0).to_numpy()
    doc.close()
    px = 100 / 25.4
    r, g, b = colour[round((y0 + spec.height_mm / 2) * px), round((x0 + spec.width_mm / 2) * px)][:3]
    assert g > r + 30 and g > b + 20


def test_tray_mat_speaks_japanese(tmp_path: Path) -> None:
    from engine.i18n import speaking

    out = tmp_path / "tray.pdf"
    with speaking("ja"):
        assert print_main(["tray", "-o", str(out)]) == 0
    text = pdfium.PdfDocument(str(out))[0].get_textpage().get_text_range()
    assert "実寸で印刷" in text, text
