"""The play screen's layout by the screen it is on: a phone (at most 720 px across), a tablet, or a TV (at least
1600 px wide). Plain arithmetic, used by the .kv rules.

The board and the panel share the screen by the map's shape: in portrait the board is as tall as the map needs at
the screen's width (so a square keypad mat gets the room its names need, and a wide map leaves the rest to the
prompt); in landscape it keeps the tablet's share, and on a TV it grows to the map's shape as far as a panel with
TV-sized text still fits beside it. Text on a TV is scaled by :func:`viewing_scale`.
"""

from __future__ import annotations

PHONE_MAX_PX = 720  # a window at most this wide is a phone
TV_MIN_PX = 1600  # a landscape window at least this wide is a TV, seen from across the room
TABLET_PX = (1280, 800)  # the tablet the readable sizes were set for
MAP_MARGIN = 1.09  # the board's room around the map when it is fitted whole (the viewport's margins)
# The board's share of a portrait screen's height, at least and at most: the panel below keeps room for a roll with
# the camera's reading and both sides' face buttons (the prompt shrinks to its readable size before it scrolls).
PORTRAIT_SHARE = (0.36, 0.52)
LANDSCAPE_SHARE = 0.64  # the board's share of a tablet's width
TV_SHARE = (0.6, 0.7)  # … and of a TV's: at least, at most


def screen_kind(width: float, height: float) -> str:
    """"phone", "tablet" or "tv"."""
    if width <= PHONE_MAX_PX:
        return "phone"
    if width >= TV_MIN_PX and width >= height:
        return "tv"
    return "tablet"


def viewing_scale(width: float, height: float) -> float:
    """How much larger than on the tablet the texts are drawn: 1 on a phone or a tablet (held at about 1 m); on a
    TV, as much as its screen is larger than the tablet's, so a text fills the same share of the screen and reads
    from the same seats around the table (1.35 at 1920×1080)."""
    if screen_kind(width, height) != "tv":
        return 1.0
    return max(1.0, min(2.0, width / TABLET_PX[0], height / TABLET_PX[1]))


def board_hint(width: float, height: float, map_aspect: float) -> tuple[float, float]:
    """The board's size_hint on the play screen (``map_aspect``: the map's height over its width; 0 while none)."""
    if width < height:  # portrait: board above, panel below
        if map_aspect <= 0:
            return (1.0, 0.5)
        share = width * map_aspect * MAP_MARGIN / max(1.0, height)
        return (1.0, max(PORTRAIT_SHARE[0], min(PORTRAIT_SHARE[1], share)))
    if screen_kind(width, height) != "tv" or map_aspect <= 0:
        return (LANDSCAPE_SHARE, 1.0)
    share = height / map_aspect * MAP_MARGIN / max(1.0, width)
    return (max(TV_SHARE[0], min(TV_SHARE[1], share)), 1.0)


def info_lines(width: float, height: float) -> int:
    """How many lines of the selection's info the play screen shows before they scroll: fewer in portrait, where
    the prompt above them has the screen's width but less of its height."""
    return 4 if width < height else 5


def panel_hint(width: float, height: float, map_aspect: float) -> tuple[float, float]:
    """The prompt panel's size_hint: the rest of the screen."""
    board = board_hint(width, height, map_aspect)
    return (1.0, 1.0 - board[1]) if width < height else (1.0 - board[0], 1.0)
