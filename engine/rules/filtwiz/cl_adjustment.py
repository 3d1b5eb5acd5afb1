"""CL adjustment (the original's optional "ＣＬ調整"): level upper and downgrade, at most 10 levels.

Level upper by n: +4n maximum HP, +2n maximum FP, +n÷2 (rounded down) to every check, +2n to every damage.
Downgrade by n: −4n maximum HP, −2n maximum FP, −n to every check, −5n to every damage, and no CL growth
in that scenario (a character of CL 15 or more still receives the wish star).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.i18n import gettext_for

_ = gettext_for(__name__)

MAX_LEVELS = 10
WISH_STAR_CL = 15


@dataclass(frozen=True)
class Adjustment:
    """What a CL adjustment changes on the sheet."""

    levels: int  # positive: level upper; negative: downgrade
    hp_max: int
    fp_max: int
    checks: int
    damage: int
    grows: bool  # whether the character's CL grows in this scenario
    wish_star: bool  # whether it still receives the wish star


def _check(levels: int) -> None:
    if not 0 <= levels <= MAX_LEVELS:
        raise ValueError(_("a CL adjustment of {levels} levels is not allowed: adjust 0 to {most} levels",
                           levels=levels, most=MAX_LEVELS))


def level_upper(levels: int) -> Adjustment:
    _check(levels)
    return Adjustment(levels, 4 * levels, 2 * levels, levels // 2, 2 * levels, grows=True, wish_star=True)


def downgrade(levels: int, original_cl: int = 1) -> Adjustment:
    _check(levels)
    grows = levels == 0
    return Adjustment(-levels, -4 * levels, -2 * levels, -levels, -5 * levels, grows=grows,
                      wish_star=grows or original_cl >= WISH_STAR_CL)
