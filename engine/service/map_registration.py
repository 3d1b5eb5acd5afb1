"""Table millimetres → map millimetres for the engine: from the board's anchor tags, by hand, or identity.

The anchors are the tags the scenario names on cells (tag id → cell), or when it names none the tags
printed on the board itself (a zone mat's corner tags); the board says where each lies in map
millimetres (:meth:`engine.scenario.Scenario.anchor_points_mm`), and the cameras see them in table
millimetres. :class:`calibration.registration.RegistrationTracker` fits and follows the transform; its
thresholds are shares of the board's cell (:attr:`engine.board.Board.cell_mm`: a hex across flats, a
zone's side). Without anchors in view the map is taken to lie where the table frame is (identity) and
the status says so; a manual registration (figures on three named cells) replaces both until the next game.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from calibration.registration import (
    DriftReport,
    ManualPoint,
    Registration,
    RegistrationTracker,
    manual_registration,
)
from engine.i18n import gettext_for
from engine.scenario import Scenario
from engine.texts import cell_noun, join_list

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

Point = tuple[float, float]
OK_RESIDUAL_CELLS = 0.25  # share of a cell
REFIT_MM = 0.5  # anchors moving less than this since the last fit keep the fit


class MapRegistration:
    """Keeps the current table → map transform and a status for the ``table`` message."""

    def __init__(self, scenario: Scenario) -> None:
        board = scenario.board
        self.scenario = scenario
        self.cell_mm = board.cell_mm
        self.expected = scenario.anchor_points_mm()
        centres = [board.centre_mm(cell) for cell in board]
        # the calibration side names its unit a hex; here it is the board's cell
        self.tracker = (RegistrationTracker(self.expected, centres, hex_mm=self.cell_mm)
                        if self.expected else None)
        self.manual: Registration | None = None
        self.last_drift: DriftReport | None = None
        self._fitted_on: dict[int, Point] | None = None

    @property
    def anchor_ids(self) -> tuple[int, ...]:
        return tuple(sorted(self.expected))

    @property
    def current(self) -> Registration | None:
        if self.manual is not None:
            return self.manual
        return self.tracker.current if self.tracker is not None else None

    def update(self, anchors_table: Mapping[int, Point]) -> None:
        """Take the anchors seen in this view of the table (table millimetres).

        A refit is skipped while the same anchors stay within ``REFIT_MM`` of where they were last
        fitted: the camera's sub-millimetre jitter cannot move the map, and the fit is the costliest
        step of following the table.
        """
        if self.tracker is None or self.manual is not None or not anchors_table:
            return
        last = self._fitted_on
        if last is not None and last.keys() == anchors_table.keys() and all(
                abs(last[i][0] - p[0]) <= REFIT_MM and abs(last[i][1] - p[1]) <= REFIT_MM
                for i, p in anchors_table.items()):
            return
        before = self.tracker.current
        drift = self.tracker.update(anchors_table)
        # keep refitting while a move of the map waits for confirmation or no fit was possible
        self._fitted_on = dict(anchors_table) if self.tracker.current is not before else None
        if drift is not None:
            self.last_drift = drift

    def register_manual(self, points: Sequence[ManualPoint]) -> Registration:
        """Replace the anchors' fit by figures placed on named cells (raises RegistrationError)."""
        self.manual = manual_registration(points, hex_mm=self.cell_mm)
        log.info("manual registration: residual %.1f mm", self.manual.residual_mm_rms)
        return self.manual

    def to_map(self, points: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """N×2 table millimetres → N×2 map millimetres (identity while there is no registration)."""
        registration = self.current
        return points if registration is None else registration.table_to_map(points)

    def to_map_angles(self, angles_deg: Sequence[float | None]) -> list[float | None]:
        """Tag angles in the table frame → the same directions in the map frame (the registration's rotation;
        a mirrored or sheared fit turns each direction as it turns the table). Unknown angles stay None."""
        registration = self.current
        if registration is None:
            return list(angles_deg)
        linear = registration.matrix[:, :2]
        out: list[float | None] = []
        for angle in angles_deg:
            if angle is None:
                out.append(None)
                continue
            a = math.radians(angle)
            x, y = linear @ np.array([math.cos(a), math.sin(a)])
            out.append(math.degrees(math.atan2(float(y), float(x))))
        return out

    def status(self) -> dict[str, Any]:
        """``{residual_mm, drift_hex, ok, text, mode}`` for the tablets (``drift_hex``: in cells of the board)."""
        registration = self.current
        cells = cell_noun(self.scenario.board.kind, 2)
        drift = None if self.last_drift is None else round(self.last_drift.max_hex, 3)
        if registration is None:
            if not self.expected:
                text = _("the scenario names no anchor tags: table millimetres are used as map millimetres (identity)")
            else:
                ids = join_list(map(str, self.anchor_ids))
                text = (_("no anchor tags seen yet (ids {ids}): table millimetres are used as map millimetres "
                          "(identity). Put the anchors on their {cells} in view, or register by hand", ids=ids,
                          cells=cells) if self.scenario.anchors else
                        _("no anchor tags seen yet (ids {ids}): table millimetres are used as map millimetres "
                          "(identity). Keep the tags printed on the board in view, or register by hand", ids=ids))
            return {"residual_mm": None, "drift_hex": drift, "ok": False, "text": text, "mode": "identity"}
        residual = round(registration.residual_mm_rms, 2)
        ok = registration.residual_hex <= OK_RESIDUAL_CELLS
        mode = "manual" if registration is self.manual else "anchors"
        text = (_("map registered from manual: residual {residual:.1f} mm", residual=residual) if mode == "manual" else
                _("map registered from anchors: residual {residual:.1f} mm", residual=residual))
        if registration.outliers:
            text += _("; anchors {ids} do not fit (moved?)", ids=join_list(map(str, registration.outliers)))
        if registration.missing:
            text += _("; anchors {ids} not seen", ids=join_list(map(str, registration.missing)))
        if not ok:
            text += _(": too large, check that the anchors sit on their {cells}", cells=cells)
        return {"residual_mm": residual, "drift_hex": drift, "ok": ok, "text": text, "mode": mode}
