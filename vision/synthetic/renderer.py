"""Render a :class:`TableDrawing` through a calibrated camera model, returning the ground truth.

The static table (polygons and printed labels) is rendered once per camera through the exact lens model. Figures,
tags and hands are drawn per frame directly in the distorted image: each tag through the
homography that maps its square onto its four projected (distorted) corners, which is exact at
the corners and off by far less than a pixel inside a 30-pixel tag.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera_model import CameraModel
from vision.detection import dictionary_by_name
from vision.synthetic.dice_drawing import DiePose, draw_dice
from vision.synthetic.effects import Effects, apply_effects
from vision.synthetic.scene import Figure, Hand, Label, TableDrawing

log = logging.getLogger(__name__)

Image = NDArray[np.uint8]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 pixels


@dataclass(frozen=True, slots=True)
class MarkerTruth:
    """Where a tag really is in one rendered frame."""

    marker_id: int
    corners_px: NDArray[np.float64]  # (4, 2) clockwise from the tag's top-left, as ArUco reports
    x_mm: float
    y_mm: float
    height_mm: float
    angle_deg: float
    visible: bool  # False when a hand covers any part of it or it falls outside the frame

    @property
    def centre_px(self) -> NDArray[np.float64]:
        return np.asarray(self.corners_px.mean(axis=0), dtype=np.float64)


@dataclass(frozen=True, slots=True)
class RenderedFrame:
    """One synthetic camera frame (BGR) and the truth about every tag in the drawing."""

    image: Image
    truth: tuple[MarkerTruth, ...]

    def visible_ids(self) -> set[int]:
        return {t.marker_id for t in self.truth if t.visible}


def tag_corners_mm(figure: Figure, side_mm: float | None = None) -> NDArray[np.float64]:
    """The tag's corners (x, y, height) in table mm, clockwise from its top-left."""
    s = (figure.marker_mm if side_mm is None else side_mm) / 2.0
    a = math.radians(figure.angle_deg)
    c, si = math.cos(a), math.sin(a)
    local = np.array([[-s, -s], [s, -s], [s, s], [-s, s]])
    xy = local @ np.array([[c, si], [-si, c]]) + np.array([figure.x_mm, figure.y_mm])
    return np.concatenate([xy, np.full((4, 1), figure.height_mm)], axis=1)


def _draw_label(picture: Image, label: Label, mm_per_px: float, margin_mm: float) -> None:
    """``label`` centred on its point, its digits ``height_mm`` tall, on the flat table picture."""
    font = cv2.FONT_HERSHEY_DUPLEX if label.bold else cv2.FONT_HERSHEY_SIMPLEX
    (_, unit_h), _ = cv2.getTextSize(label.text, font, 1.0, 1)
    scale = label.height_mm / mm_per_px / max(unit_h, 1)
    thickness = max(1, round(scale * (3.0 if label.bold else 2.0)))
    (w, h), _ = cv2.getTextSize(label.text, font, scale, thickness)
    x = (label.x_mm + margin_mm) / mm_per_px - w / 2.0
    y = (label.y_mm + margin_mm) / mm_per_px + h / 2.0
    cv2.putText(picture, label.text, (round(x), round(y)), font, scale, label.colour, thickness, cv2.LINE_AA)


def _hull_box(hull: NDArray[np.int32]) -> Box:
    """The pixels an outline (pixels × 16) spans."""
    x0, y0 = hull.reshape(-1, 2).min(axis=0) // 16
    x1, y1 = hull.reshape(-1, 2).max(axis=0) // 16 + 2
    return int(x0), int(y0), int(x1), int(y1)


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class TableRenderer:
    """Draws frames of one table as one camera sees it."""

    def __init__(self, camera: CameraModel, table: TableDrawing, dictionary: str = "DICT_4X4_100",
                 mm_per_px: float = 0.5, floor: tuple[int, int, int] = (70, 60, 55)) -> None:
        self.camera = camera
        self.table = table
        self.dictionary = dictionary_by_name(dictionary)
        self._cells = int(self.dictionary.markerSize) + 2  # bits plus the black border
        self._textures: dict[tuple[int, int], Image] = {}
        self.background = self._render_table(mm_per_px, floor)
        w_mm, h_mm = table.size_mm
        self.lamp_mm = np.array([w_mm * 0.5 + 150.0, h_mm * 0.5 - 250.0, 1600.0])  # lights the dice' faces

    def _render_table(self, mm_per_px: float, floor: tuple[int, int, int]) -> Image:
        w_mm, h_mm = self.table.size_mm
        margin = 300.0  # floor around the table, so that tilted views show an edge
        w_px, h_px = math.ceil((w_mm + 2 * margin) / mm_per_px), math.ceil((h_mm + 2 * margin) / mm_per_px)
        picture = np.empty((h_px, w_px, 3), np.uint8)
        picture[:] = floor

        def px(points: NDArray[np.float64]) -> NDArray[np.int32]:
            return np.round((points + margin) / mm_per_px * 16).astype(np.int32)  # 4 fractional bits

        table_rect = np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], dtype=np.float64)
        cv2.fillPoly(picture, [px(table_rect)], self.table.background, cv2.LINE_AA, shift=4)
        for poly in self.table.polygons:
            pts = px(np.asarray(poly.points_mm, dtype=np.float64))
            cv2.fillPoly(picture, [pts], poly.fill, cv2.LINE_AA, shift=4)
            if poly.edge is not None:
                thickness = max(1, round(poly.edge_mm / mm_per_px))
                cv2.polylines(picture, [pts], True, poly.edge, thickness, cv2.LINE_AA, shift=4)
        for label in self.table.labels:
            _draw_label(picture, label, mm_per_px, margin)
        log.info("rendering the table through the camera model (once per camera)")
        return self.camera.render_plane(picture, mm_per_px, origin_mm=(-margin, -margin))

    def _texture(self, marker_id: int, cell_px: int) -> Image:
        """The tag with a one-cell white quiet zone, ``cell_px`` pixels per cell, as BGR."""
        key = (marker_id, cell_px)
        if key not in self._textures:
            tag = cv2.aruco.generateImageMarker(self.dictionary, marker_id, self._cells * cell_px, borderBits=1)
            padded = cv2.copyMakeBorder(tag, cell_px, cell_px, cell_px, cell_px, cv2.BORDER_CONSTANT, value=255)
            self._textures[key] = np.asarray(cv2.cvtColor(padded, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
        return self._textures[key]

    def render(self, figures: tuple[Figure, ...] | None = None, hands: tuple[Hand, ...] = (),
               effects: Effects | None = None, rng: np.random.Generator | None = None,
               dice: tuple[DiePose, ...] = ()) -> RenderedFrame:
        """One frame with ``figures`` (default: the drawing's), ``dice`` and ``hands`` over the table."""
        figures = self.table.figures if figures is None else figures
        image = self.background.copy()
        draw_dice(image, self.camera, dice, self.lamp_mm)
        depth = self.camera.depth_mm(np.array([[f.x_mm, f.y_mm, f.height_mm] for f in figures]).reshape(-1, 3))
        drawn: list[tuple[Figure, Box]] = []
        for index in np.argsort(-depth):  # far figures first, so near ones cover them
            figure = figures[int(index)]
            hull = self._draw_body(image, figure)
            if hull is not None:
                # A body cannot hide a tag as high as its top or higher (the camera looks down on both): the
                # tags of farther figures that its outline covered are drawn again over it.
                for other, covers in drawn:
                    if other.height_mm >= figure.height_mm and _boxes_meet(covers, _hull_box(hull)):
                        self._draw_tag(image, other, hull)
            box = self._draw_tag(image, figure)
            if box is not None:
                drawn.append((figure, box))
        hand_mask = np.zeros(image.shape[:2], np.uint8) if hands else None
        for hand in hands:
            pts = self.camera.project([(x, y, hand.height_mm) for x, y in hand.points_mm])
            poly = np.round(pts * 16).astype(np.int32)
            cv2.fillPoly(image, [poly], hand.colour, cv2.LINE_AA, shift=4)
            cv2.fillPoly(hand_mask, [poly], 255, cv2.LINE_8, shift=4)  # type: ignore[arg-type]
        truth = tuple(self._truth(f, hand_mask) for f in figures)
        image = apply_effects(image, effects or Effects(), rng or np.random.default_rng(0))
        return RenderedFrame(image, truth)

    def _draw_body(self, image: Image, figure: Figure) -> NDArray[np.int32] | None:
        """The figure's body (a cylinder up to its tag); returns its outline (pixels × 16), None when flat."""
        if figure.height_mm <= 1.0:
            return None
        ring = [(figure.x_mm + figure.base_mm / 2 * math.cos(t), figure.y_mm + figure.base_mm / 2 * math.sin(t))
                for t in np.linspace(0, 2 * math.pi, 24, endpoint=False)]
        pts = self.camera.project([(x, y, h) for h in (0.0, figure.height_mm) for x, y in ring])
        hull = np.asarray(cv2.convexHull(np.round(pts * 16).astype(np.int32)), dtype=np.int32)
        cv2.fillConvexPoly(image, hull, figure.body, cv2.LINE_AA, shift=4)
        return hull

    def _draw_tag(self, image: Image, figure: Figure, clip: NDArray[np.int32] | None = None) -> Box | None:
        """The tag on its white label; only inside the outline ``clip`` when given. Returns the pixels it may cover."""
        corners = self.camera.project(tag_corners_mm(figure))
        side_px = float(np.linalg.norm(corners[0] - corners[2])) / math.sqrt(2)
        cell_px = int(np.clip(round(side_px / self._cells), 2, 12))
        texture = self._texture(figure.marker_id, cell_px)
        quiet = cell_px * 1.0
        inner = self._cells * cell_px
        src = np.array([[quiet, quiet], [quiet + inner, quiet], [quiet + inner, quiet + inner], [quiet, quiet + inner]],
                       dtype=np.float32) - 0.5  # texel centres sit at half-integers of the edge coordinates
        # The white label reaches one cell beyond the tag on every side.
        label = self.camera.project(tag_corners_mm(figure, figure.marker_mm * (self._cells + 2) / self._cells))
        x0, y0 = np.floor(label.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(label.max(axis=0)).astype(int) + 2
        h, w = image.shape[:2]
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if cx0 >= cx1 or cy0 >= cy1:
            return None
        dst = (corners - np.array([cx0, cy0])).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        size = (cx1 - cx0, cy1 - cy0)
        warped = cv2.warpPerspective(texture, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        coverage = np.ones(texture.shape[:2], np.float32)
        alpha = cv2.warpPerspective(coverage, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        if clip is not None:
            inside = np.zeros(alpha.shape, np.uint8)
            cv2.fillConvexPoly(inside, clip - np.array([cx0 * 16, cy0 * 16], np.int32), 255, cv2.LINE_AA, shift=4)
            alpha = alpha * (inside.astype(np.float32) / 255.0)
        roi = image[cy0:cy1, cx0:cx1]
        a = alpha[:, :, None]
        roi[:] = np.clip(roi * (1.0 - a) + warped * a + 0.5, 0, 255).astype(np.uint8)
        return int(cx0), int(cy0), int(cx1), int(cy1)

    def _truth(self, figure: Figure, hand_mask: NDArray[np.uint8] | None) -> MarkerTruth:
        corners = self.camera.project(tag_corners_mm(figure))
        h, w = self.background.shape[:2]
        inside = bool(np.all((corners >= 1) & (corners < np.array([w - 1, h - 1]))))
        covered = False
        if inside and hand_mask is not None:
            x0, y0 = np.floor(corners.min(axis=0)).astype(int)
            x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
            tag_mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillConvexPoly(tag_mask, np.round(corners - np.array([x0, y0])).astype(np.int32), 255)
            covered = bool(np.any(hand_mask[y0:y1, x0:x1][tag_mask > 0]))
        return MarkerTruth(figure.marker_id, corners, figure.x_mm, figure.y_mm, figure.height_mm,
                           figure.angle_deg, inside and not covered)
