"""The next size a prompt too tall for its room is tried at, or that it never fits: few steps, none too far.

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

from collections.abc import Sequence

LEAST_FIT = 0.55  # no prompt shrinks further (no text goes below the readable size at any fit, either)
HOPELESS_MARGIN = 0.8  # a line or two of a wrapped text may go at once as its fit shrinks: that much room allowed
FIT_STEP = (0.9, 0.97)  # one step of shrinking, at most and at least

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
