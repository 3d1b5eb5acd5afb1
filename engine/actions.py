"""Actions: the answers the table gives to the engine's prompts.

Every action has a dict form (journal, wire) and a one-line text form (game records and the
terminal game), e.g. ``roll 5 3``, ``roll! 4`` (a virtual roll made by the app), ``roll 5 3 @camera`` (read by
the table camera), ``choose advance``,
``move knight C3``, ``remove goblin-2``, ``face knight 3`` (turn a figure to a board direction: on a hex map the
index of the neighbour it looks at, 0..5, see :data:`engine.hexes.DIRECTIONS`). A move names its cell by the
board's label (``C3`` on a hex map, ``7`` on the keypad mat), so the text forms take the board that labels cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.board.base import Cell, CellLabels
from engine.errors import IllegalActionError
from engine.i18n import gettext_for

_ = gettext_for(__name__)


# Where a roll's faces came from besides the players' typing (``Roll.source``): the camera read every die, or it
# read some and the players tapped the faces of the dice it could not read.
CAMERA = "camera"
CAMERA_AND_TABLET = "camera+tablet"
ROLL_SOURCES: tuple[str, ...] = (CAMERA, CAMERA_AND_TABLET)


@dataclass(frozen=True)
class Roll:
    """Die results in the order the prompt listed the dice; ``virtual`` when the software rolled; ``source`` when
    the table camera read the faces (one of :data:`ROLL_SOURCES`; None: the players entered them)."""

    values: tuple[int, ...]
    virtual: bool = False
    source: str | None = None
    kind: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Choose:
    """Pick one option of a choice prompt by its id."""

    option: str
    kind: ClassVar[str] = "choose"


@dataclass(frozen=True)
class Move:
    """Move a figure to a hex (its own hex to stay put)."""

    figure: str
    to: Cell
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class Remove:
    """Confirm that a figure has been taken off the table."""

    figure: str
    kind: ClassVar[str] = "remove"


@dataclass(frozen=True)
class Face:
    """Turn a figure to face a board direction (rule sets that use facing accept it at any time)."""

    figure: str
    direction: int
    kind: ClassVar[str] = "face"


Action = Roll | Choose | Move | Remove | Face


def action_to_dict(action: Action) -> dict[str, Any]:
    if isinstance(action, Roll):
        data: dict[str, Any] = {"kind": "roll", "values": list(action.values), "virtual": action.virtual}
        if action.source is not None:  # written only when set: journals and records from before read as they were
            data["source"] = action.source
        return data
    if isinstance(action, Choose):
        return {"kind": "choose", "option": action.option}
    if isinstance(action, Move):
        return {"kind": "move", "figure": action.figure, "to": [action.to.q, action.to.r]}
    if isinstance(action, Face):
        return {"kind": "face", "figure": action.figure, "direction": action.direction}
    return {"kind": "remove", "figure": action.figure}


def _field(data: dict[str, Any], name: str, typ: type) -> Any:
    if name not in data:
        raise IllegalActionError(_("action field {name!r} is missing (a {kind} action needs it)", name=name,
                                   kind=data.get("kind")))
    value = data.get(name)
    if not isinstance(value, typ) or (isinstance(value, bool) and typ is not bool):
        raise IllegalActionError(_("action field {name!r} must be a {type}, got {value!r}", name=name,
                                   type=typ.__name__, value=value))
    return value


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from its dict form, refusing anything malformed with a clear message."""
    if not isinstance(data, dict):
        raise IllegalActionError(_("an action must be an object with a 'kind', got {data!r}", data=data))
    kind = data.get("kind")
    if kind == "roll":
        values = _field(data, "values", list)
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise IllegalActionError(_("'values' must be a non-empty list of die results, got {values!r}",
                                       values=values))
        source = data.get("source")
        if source is not None and source not in ROLL_SOURCES:
            raise IllegalActionError(_("a roll's 'source' is one of {known} or absent, got {source!r}",
                                       known=", ".join(ROLL_SOURCES), source=source))
        return Roll(tuple(values), bool(data.get("virtual", False)), source)
    if kind == "choose":
        return Choose(_field(data, "option", str))
    if kind == "move":
        to = _field(data, "to", list)
        if len(to) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in to):
            raise IllegalActionError(_("'to' must be [q, r], got {to!r}", to=to))
        return Move(_field(data, "figure", str), Cell(to[0], to[1]))
    if kind == "remove":
        return Remove(_field(data, "figure", str))
    if kind == "face":
        return Face(_field(data, "figure", str), _field(data, "direction", int))
    raise IllegalActionError(_("unknown action kind {kind!r}: expected roll, choose, move, remove or face", kind=kind))


def action_to_text(action: Action, labels: CellLabels) -> str:
    """The one-line form; a move's cell is written with ``labels`` (the scenario's board)."""
    if isinstance(action, Roll):
        text = ("roll! " if action.virtual else "roll ") + " ".join(str(v) for v in action.values)
        return text if action.source is None else f"{text} @{action.source}"
    if isinstance(action, Choose):
        return f"choose {action.option}"
    if isinstance(action, Move):
        return f"move {action.figure} {labels.label(action.to)}"
    if isinstance(action, Face):
        return f"face {action.figure} {action.direction}"
    return f"remove {action.figure}"


def action_from_text(text: str, labels: CellLabels) -> Action:
    """Parse the one-line form, a move's cell by ``labels`` (the scenario's board); errors show the forms that work."""
    words = text.split()
    forms = ("roll 5 3 | roll! 4 | roll 5 3 @camera | choose OPTION | move FIGURE CELL | remove FIGURE | "
             "face FIGURE DIRECTION")
    if not words:
        raise IllegalActionError(_("empty action: expected one of {forms}", forms=forms))
    verb, args = words[0].lower(), words[1:]
    try:
        if verb in ("roll", "roll!") and args:
            source = args[-1][1:] if args[-1].startswith("@") else None
            if source is not None:
                args = args[:-1]
                if source not in ROLL_SOURCES or not args:
                    raise ValueError(_("a roll read by the camera ends with one of {known}",
                                       known=", ".join(f"@{s}" for s in ROLL_SOURCES)))
            return Roll(tuple(int(a) for a in args), virtual=verb == "roll!", source=source)
        if verb == "choose" and len(args) == 1:
            return Choose(args[0])
        if verb == "move" and len(args) == 2:
            return Move(args[0], labels.from_label(args[1]))
        if verb == "remove" and len(args) == 1:
            return Remove(args[0])
        if verb == "face" and len(args) == 2:
            return Face(args[0], int(args[1]))
    except ValueError as exc:
        raise IllegalActionError(_("cannot read {text!r}: {error}", text=text, error=exc)) from None
    raise IllegalActionError(_("cannot read {text!r}: expected one of {forms}", text=text, forms=forms))
