"""The prompt's fit: planned at once where its height is foreseen, the largest that fits; else found in steps, never
smaller than needed, and a prompt that cannot fit found early."""

from __future__ import annotations

import math
from collections.abc import Callable

from companion_app.ui.fit_steps import (
    FIT_STEP,
    HOPELESS_MARGIN,
    LEAST_FIT,
    PLAN_LOOKS,
    PLAN_RESOLUTION,
    least_height,
    next_fit,
    planned_fit,
)


def test_a_step_shrinks_by_the_room_over_the_height_within_its_bounds() -> None:
    assert next_fit((1.0, 400.0), 392.0) == FIT_STEP[1]  # a few pixels over: the least step
    assert next_fit((1.0, 400.0), 380.0) == 0.95
    assert next_fit((0.8, 500.0), 300.0) == 0.8 * FIT_STEP[0]  # far over: the largest step, no more
    assert next_fit((0.58, 500.0), 440.0) == LEAST_FIT  # never below the least fit


def test_a_prompt_whose_height_cannot_shrink_into_its_room_is_hopeless_at_once() -> None:
    # A height shrinks with the fit's square at most: at LEAST_FIT it is at least 0.3025 of its full height.
    assert next_fit((1.0, 1000.0), 0.3025 * 1000.0 * HOPELESS_MARGIN - 1) is None
    assert next_fit((1.0, 1000.0), 0.3025 * 1000.0 * HOPELESS_MARGIN + 1) is not None
    assert next_fit((LEAST_FIT, 300.0), 290.0) is None  # tried at the least fit and still too tall


def test_the_line_from_full_size_finds_a_slowly_shrinking_prompt_hopeless_after_one_step() -> None:
    # 23 answers in a narrow panel: a tenth less size took off only 3 % of the height.
    full, now, room = (1.0, 1600.0), (0.9, 1552.0), 480.0
    assert least_height(now, (), LEAST_FIT) < room / HOPELESS_MARGIN  # the square bound alone would go on
    assert next_fit(now, room, full) is None
    # ... while one that shrank fast since its full size goes on shrinking.
    assert next_fit((0.9, 1100.0), room, (1.0, 1600.0)) is not None


def test_the_bounds_are_below_heights_that_shrink_with_the_fit_and_its_square() -> None:
    def height(f: float) -> float:  # a part that does not shrink, one with the fit, one with its square
        return 120.0 + 300.0 * f + 500.0 * f * f

    for fit in (1.0, 0.9, 0.75, 0.6):
        for at in (0.58, LEAST_FIT):
            if at < fit:
                assert least_height((fit, height(fit)), ((1.0, height(1.0)),), at) <= height(at) + 1e-9


def test_a_prompt_that_stopped_shrinking_is_hopeless_at_the_next_step() -> None:
    # Its texts at their readable floor: from 0.81 to 0.73 it lost 11 px of 690, and no bound from full size tells.
    full, last, now, room = (1.0, 860.0), (0.81, 691.0), (0.73, 680.0), 500.0
    assert next_fit(now, room, full) is not None
    assert next_fit(now, room, full, last) is None


def counted(height: Callable[[float], float]) -> tuple[Callable[[float], float], list[float]]:
    """``height``, and the fits it was asked for."""
    asked: list[float] = []

    def looked(fit: float) -> float:
        asked.append(fit)
        return height(fit)

    return looked, asked


def test_a_plan_is_the_largest_fit_that_fits_within_its_resolution_in_few_looks() -> None:
    curves: dict[str, Callable[[float], float]] = {
        "square": lambda f: 900.0 * f * f,
        "line": lambda f: 200.0 + 400.0 * f,
        # texts at their readable floor below 0.8, buttons at a finger's height: flat at the small end
        "floors": lambda f: 420.0 + 300.0 * max(0.0, f - 0.8) ** 1.5 + 20.0 * f,
        # a wrapped line coming and going: steps
        "steps": lambda f: 300.0 + 28.0 * math.ceil(f * 9.0),
    }
    for name, curve in curves.items():
        for room in (curve(1.0) - 1.0, (curve(1.0) + curve(LEAST_FIT)) / 2, curve(LEAST_FIT) + 0.5):
            look, asked = counted(curve)
            plan = planned_fit(look, room)
            assert plan is not None and not plan[1], (name, room, plan)
            fit = plan[0]
            assert curve(fit) <= room, (name, room, fit)  # it fits
            assert fit + PLAN_RESOLUTION >= 1.0 or curve(fit + PLAN_RESOLUTION) > room, (name, room, fit)  # largest
            assert len(asked) <= PLAN_LOOKS + 2, (name, room, asked)


def test_a_plan_shows_a_fitting_prompt_whole_and_scrolls_a_hopeless_one_at_full_size() -> None:
    look, asked = counted(lambda f: 300.0 * f)
    assert planned_fit(look, 300.0) == (1.0, False) and asked == [LEAST_FIT, 1.0]  # fits as it is
    look, asked = counted(lambda f: 1000.0 * f)
    assert planned_fit(look, 500.0) == (1.0, True)  # 550 at the least fit: scrolls, at full size
    assert asked == [LEAST_FIT]  # a long prompt, the costliest to look at: one look
    assert planned_fit(lambda f: None, 500.0) is None  # not foreseen: found in steps
    assert planned_fit(lambda f: None if f < 1.0 else 900.0, 500.0) is None
