"""A prompt that fits its room once shrunk is shown at once at the largest fit that fits, its height foreseen
(fit_plan) rather than found by shrinking it a frame at a time; one several rooms tall scrolls at its full size at
once, never shrunk on the way. The foreseen heights are the laid-out ones, for every kind of prompt the panel shows."""

from __future__ import annotations

import pytest

from companion_app.ui.fit_steps import LEAST_FIT
from tests.app.window_run import run_window


@pytest.mark.window
def test_a_prompt_is_shown_at_once_at_the_largest_fit_that_fits_and_a_hopeless_one_never_shrinks() -> None:
    result = run_window("tests.app.window_prompt_fit")
    shrinkable, hopeless = result["shrinkable"], result["hopeless"]
    assert shrinkable["fits"] and LEAST_FIT <= shrinkable["fit"] < 1.0, shrinkable
    assert shrinkable["height"] <= shrinkable["room"], shrinkable
    assert shrinkable["fits_set"] == [shrinkable["fit"]], shrinkable  # no text rendered at a size it does not keep
    assert shrinkable["larger_height"] > shrinkable["room"], shrinkable  # the largest fit that fits
    smaller = result["smaller_room"]  # less room for the same prompt: one step to its new fit
    assert smaller["height"] <= smaller["room"] and smaller["fit"] < smaller["before"], smaller
    assert smaller["fits_set"] == [smaller["fit"]], smaller
    assert hopeless["scrolls"] and hopeless["fit"] == 1.0, hopeless
    assert hopeless["height"] > hopeless["room"], hopeless
    assert all(f == 1.0 for f in hopeless["fits_set"]), hopeless  # no text rendered smaller on the way


@pytest.mark.window
def test_a_prompts_foreseen_height_is_its_laid_out_height_at_every_fit() -> None:
    result = run_window("tests.app.window_fit_plan")
    seen = result["seen"]
    names = {s["prompt"] for s in seen}
    assert {"choice", "japanese", "camera reading", "camera question", "alarm"} <= names, names
    assert {n.split()[0] for n in names} >= {"goblins-treasure", "laramie-station", "tenkey-skirmish",
                                         "lost-worlds-ruined-tower"}, names
    wrong = [s for s in seen if s["foreseen"] is None or abs(s["foreseen"] - s["laid_out"]) > 0.5]
    assert not wrong, wrong
    first = result["first_frame"]  # shown from a clock event, as the app shows a message: whole in its first frame
    assert first["rows"] >= 2 and first["rows_pending"] == 0, first
    assert first["fits"] or (first["scrolls"] and first["fit"] == 1.0), first
    # the fits make a difference the forecast follows: a prompt is shorter at the smallest fit than at full size
    by_prompt = {(s["prompt"], s["fit"]): s["laid_out"] for s in seen}
    assert all(by_prompt[(n, LEAST_FIT)] < by_prompt[(n, 1.0)] for n in names), by_prompt
