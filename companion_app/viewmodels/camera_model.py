"""The Camera screen's texts: the calibration verdict, each camera link as the engine reports it, warnings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion_app.viewmodels.session import GameSession
from engine.i18n import N_, gettext_for

_ = gettext_for(__name__)

NO_REPORT = N_("No camera report from the engine yet.")
NO_CAMERA = N_("No camera connected: moves can be entered by dragging figures on the board.")
NO_PREVIEW = N_("No live preview: start 'hexa app --vision tcp://HOST:5555' to see the camera.")
REFUSED = N_("A camera with an unknown key was refused: give the camera service and the engine the same --keys "
             "folder, made by one 'hexa keys' run.")


@dataclass(frozen=True)
class CameraReport:
    verdict: str
    links: str
    warnings: str


@dataclass(frozen=True)
class DiceModeSwitch:
    """Where the engine takes the dice from now, and the button that switches it (``to``: the ``dice`` command's
    mode it sends)."""

    text: str
    button: str
    to: str


def dice_mode_switch(table: Mapping[str, object] | None) -> DiceModeSwitch | None:
    """The table's dice mode as the engine reports it (None: not reported, nothing to switch)."""
    mode = (table or {}).get("dice_mode")
    if mode == "camera":
        return DiceModeSwitch(_("Dice: read by the camera in the tray (the prompt's face buttons still work)."),
                              _("Enter the dice on the tablet only"), "tablet")
    if mode == "tablet":
        return DiceModeSwitch(_("Dice: entered on the tablet; the camera does not read the tray."),
                              _("Let the camera read the dice"), "camera")
    return None


def camera_report(session: GameSession, has_preview: bool) -> CameraReport:
    """From the session's last ``table`` report (tolerant: missing keys mean nothing to show)."""
    table = session.table or {}
    reg = table.get("registration") or {}
    if isinstance(reg, Mapping) and reg:
        text = reg.get("text", "")
        verdict = (_("Calibration good: {text}", text=text) if reg.get("ok")
                   else _("Calibration needs attention: {text}", text=text))
    else:
        verdict = _(NO_REPORT)
    cams = [c for c in table.get("cameras") or [] if isinstance(c, Mapping)]
    links = "\n".join(_("Camera {id}: {status}, refused", id=c.get("id"), status=c.get("status"))
                      if c.get("refused") is True
                      else _("Camera {id}: {status}", id=c.get("id"), status=c.get("status"))
                      for c in cams) or _(NO_CAMERA)
    problems = [_("Camera {id}: {problem}", id=c.get("id"), problem=c["problem"]) for c in cams if c.get("problem")]
    if not has_preview:
        links += "\n" + _(NO_PREVIEW)
    refused = [_(REFUSED)] if any(c.get("refused") is True for c in cams) else []
    table_lines = session.table_view.lines(session.board) if session.board is not None else []
    return CameraReport(verdict, links, "\n".join([*refused, *problems, *table_lines]))
