"""What a game master may do beyond the players, as a rule set declares it: rulings and calculators.

Rule sets whose originals leave the last word to a game master (Filtwiz, Tenkey, Lost Worlds) declare

- ruling kinds (:class:`RulingKind`): a judgement the rules ask for or the GM may overturn, stored in
  the game state under a key ``"<kind>:<subject>"`` (``GameState.rulings``) with one of the kind's
  values; the rule set reads them where it judges (``ruling(state, kind, subject)``);
- calculators (:class:`Calculator`): pure arithmetic the table would otherwise do by hand, run on
  request with plain inputs and answered with plain results (a ValueError names a refused input).

The engine service offers both to the tablet it names game master (``gm`` commands, see
docs/wire-protocol.md); nothing here knows a rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.i18n import gettext_for

if TYPE_CHECKING:
    from engine.state import GameState

_ = gettext_for(__name__)


class RulingError(ValueError):
    """A ruling the rule set does not declare, or a value its kind does not allow."""


@dataclass(frozen=True)
class RulingKind:
    """A judgement the game master may give: its name, what the subject names, the values allowed."""

    name: str
    help: str
    subject: str  # what follows the colon of a key, in words ("two cells: 'B3:D4'")
    values: tuple[str, ...]


@dataclass(frozen=True)
class CalculatorField:
    """One input of a calculator: its name, a line for people, and its kind ("int", "ints", "objects", "bool")."""

    name: str
    kind: str
    help: str
    required: bool = True


@dataclass(frozen=True)
class Calculator:
    """A calculator the game master runs: ``run(inputs)`` returns plain results or raises ValueError saying why."""

    name: str
    label: str
    help: str
    fields: tuple[CalculatorField, ...]
    run: Callable[[Mapping[str, Any]], dict[str, Any]]


def ruling_key(kind: str, subject: str) -> str:
    return f"{kind}:{subject}"


def ruling(state: GameState, kind: str, subject: str) -> str | None:
    """The game master's ruling of ``kind`` about ``subject``, or None when there is none."""
    return state.rulings.get(ruling_key(kind, subject))


def check_ruling(kinds: tuple[RulingKind, ...], key: str, value: str | None) -> RulingKind:
    """The declared kind of a ruling key; refuses an unknown kind or a value it does not allow (None clears)."""
    name, sep, subject = key.partition(":")
    known = {k.name: k for k in kinds}
    kind = known.get(name)
    if kind is None or not sep or not subject:
        listed = "; ".join(f"{k.name}:<{k.subject}>" for k in kinds) or "none"
        raise RulingError(_("ruling {key!r} is not one this rule set takes. Fix: use one of: {listed}", key=key[:60],
                            listed=listed))
    if value is not None and value not in kind.values:
        raise RulingError(_("ruling {name!r} takes {values}, not {value!r}", name=name, values=", ".join(kind.values),
                            value=value[:40]))
    return kind


def calculator_to_dict(c: Calculator) -> dict[str, Any]:
    """A calculator as the tablets list it (the scenario message)."""
    return {"name": c.name, "label": c.label, "help": c.help,
            "fields": [{"name": f.name, "kind": f.kind, "help": f.help, "required": f.required} for f in c.fields]}


def ruling_kind_to_dict(k: RulingKind) -> dict[str, Any]:
    return {"name": k.name, "help": k.help, "subject": k.subject, "values": list(k.values)}
