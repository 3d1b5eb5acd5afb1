"""The fit a prompt too tall for its room is shown at, or that it never fits: foreseen at once where its height can
be (:func:`planned_fit`), else found in few steps, none too far.

A prompt is fitted by one factor on every text, button and gap of it (its *fit*, 1.0 its full size). Each step
renders every text again, so the steps must be few, and none may shrink it more than it needs (smaller texts are
harder to read): a step shrinks by the room over the height (the height as if it shrank with the fit alone),
between :data:`FIT_STEP`'s bounds.

A prompt that cannot fit even at :data:`LEAST_FIT` scrolls at its full size, and is known to as early as lower
bounds on its height at that fit allow:

- its height shrinks with the fit's square at most (narrower lines, and fewer of them, each the font's height;
  gaps and the parts that do not shrink only slow it), so at fit ``f`` it is at least ``height · (f / fit)²``;
- the line through its height now and its height at a larger fit (at full size, and the step before), carried on
  to smaller fits, lies below the heights there too: the height is a sum of parts growing with the fit and with
  its square, a convex curve; the texts' readable floor (``readability.MIN_READ_SP``) and the buttons' touch
  height only flatten it further (give or take a wrapped line or a row of buttons: :data:`HOPELESS_MARGIN`).

The lines find most long prompts hopeless after a step or two, instead of a step at every size on the way down:
once its texts are at their floors, a prompt hardly shrinks any more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

LEAST_FIT = 0.55  # no prompt shrinks further (no text goes below the readable size at any fit, either)
HOPELESS_MARGIN = 0.8  # a line or two of a wrapped text may go at once as its fit shrinks: that much room allowed
FIT_STEP = (0.9, 0.97)  # one step of shrinking, at most and at least

PLAN_RESOLUTION = 0.02  # a planned fit is within this of the largest that fits
PLAN_LOOKS = 12  # a plan gives up after this many heights foreseen (a height curve it cannot bracket)

Look = tuple[float, float]  # a fit tried, and the prompt's height at it (once laid out)


def least_height(now: Look, before: Sequence[Look | None], at: float) -> float:
    """A lower bound on the height at fit ``at`` (below ``now``'s fit), from the height now and at larger fits."""
    fit, height = now
    bound = height * (at / fit) ** 2
    for look in before:
        if look is not None and look[0] > fit and look[1] > height:
            slope = (look[1] - height) / (look[0] - fit)
            bound = max(bound, height - slope * (fit - at))
    return bound


def next_fit(now: Look, room: float, full: Look | None = None, last: Look | None = None) -> float | None:
    """The fit to try next for a prompt at ``now`` (fit, height) too tall for ``room`` (``full``: its look at full
    size, ``last``: its look the step before, at the same width); None when it cannot fit even at
    :data:`LEAST_FIT`."""
    fit, height = now
    if fit <= LEAST_FIT or room < least_height(now, (full, last), LEAST_FIT) * HOPELESS_MARGIN:
        return None
    return max(LEAST_FIT, fit * max(FIT_STEP[0], min(FIT_STEP[1], room / height)))


def planned_fit(height: Callable[[float], float | None], room: float) -> tuple[float, bool] | None:
    """The fit to show a prompt at, from ``height`` (its height foreseen at a fit), and whether it scrolls (it does not
    fit even at :data:`LEAST_FIT`: shown at its full size); None when its height cannot be foreseen.

    The fit is the largest that fits, to :data:`PLAN_RESOLUTION`: a bracket (a fit that fits, one that does not)
    narrowed where the chord between its ends meets the room, the end kept twice running taken halfway in
    (the Illinois rule, so a convex height curve does not hold one end forever)."""
    least = height(LEAST_FIT)  # first: a long prompt, the costliest to look at, is known hopeless in one look
    if least is None or least > room:
        return None if least is None else (1.0, True)
    full = height(1.0)
    if full is None or full <= room:
        return None if full is None else (1.0, False)
    lo, hi, over_lo, over_hi = LEAST_FIT, 1.0, least - room, full - room  # over: height beyond the room (≤ 0 fits)
    kept = 0  # which end the last two looks kept: -1 the low one, 1 the high one
    for _ in range(PLAN_LOOKS):
        if hi - lo <= PLAN_RESOLUTION:
            return lo, False
        guess = lo + (hi - lo) * -over_lo / (over_hi - over_lo)
        guess = min(hi - PLAN_RESOLUTION / 2, max(lo + PLAN_RESOLUTION / 2, guess))
        seen = height(guess)
        if seen is None:
            return None
        if seen <= room:
            lo, over_lo = guess, seen - room
            over_hi = over_hi / 2 if kept == 1 else over_hi
            kept = 1
        else:
            hi, over_hi = guess, seen - room
            over_lo = over_lo / 2 if kept == -1 else over_lo
            kept = -1
    return lo, False
