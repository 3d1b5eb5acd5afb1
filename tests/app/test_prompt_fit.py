"""A prompt that fits its room once shrunk is shrunk until it fits, in few steps; one several rooms tall scrolls at
its full size at once, never shrunk on the way (each step of shrinking renders every text again and takes a
frame)."""

from __future__ import annotations

import pytest

from companion_app.ui.fit_steps import LEAST_FIT
from tests.app.window_run import run_window


@pytest.mark.window
def test_a_prompt_is_shrunk_to_fit_and_a_hopeless_one_is_never_shrunk() -> None:
    result = run_window("tests.app.window_prompt_fit")
    shrinkable, hopeless = result["shrinkable"], result["hopeless"]
    assert shrinkable["fits"] and LEAST_FIT <= shrinkable["fit"] < 1.0, shrinkable
    assert shrinkable["height"] <= shrinkable["room"], shrinkable
    assert shrinkable["fits_set"][0] == 1.0 and len(shrinkable["fits_set"]) <= 3, shrinkable  # full size, two steps
    assert hopeless["scrolls"] and hopeless["fit"] == 1.0, hopeless
    assert hopeless["height"] > hopeless["room"], hopeless
    assert all(f == 1.0 for f in hopeless["fits_set"]), hopeless  # no text rendered smaller on the way
