"""Field readers: validate one value of a received message, or raise :class:`WireError` naming its path.

Every reader takes the object, the key and ``where`` (the path so far, such as ``tracks.markers[3]``),
so an error reads ``tracks.markers[3].x_mm: expected a number, got 'a'``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.i18n import gettext_for

_ = gettext_for(__name__)


class WireError(ValueError):
    """A message that cannot be accepted: the text names the field and what is wrong with it."""


def field_path(where: str, key: str) -> str:
    """The path of ``key`` inside ``where``, as errors name it: ``tracks.markers[3].x_mm``."""
    return f"{where}.{key}"


def require(obj: Mapping[str, Any], key: str, where: str) -> Any:
    """The value of a required key."""
    if key not in obj:
        raise WireError(_("{where}: missing (required field)", where=field_path(where, key)))
    return obj[key]


def is_int(value: Any) -> bool:
    """A JSON integer (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_int(value: Any, where: str, minimum: int | None = 0) -> int:
    if not is_int(value):
        raise WireError(_("{where}: expected an integer, got {value!r}", where=where, value=value))
    if minimum is not None and value < minimum:
        raise WireError(_("{where}: must be >= {minimum}, got {value}", where=where, minimum=minimum, value=value))
    return int(value)


def check_float(value: Any, where: str, low: float | None = None, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WireError(_("{where}: expected a number, got {value!r}", where=where, value=value))
    number = float(value)
    if not math.isfinite(number):
        raise WireError(_("{where}: must be a finite number, got {value!r}", where=where, value=value))
    if (low is not None and number < low) or (high is not None and number > high):
        raise WireError(_("{where}: must be within [{low}, {high}], got {number}", where=where, low=low, high=high,
                            number=number))
    return number


def check_str(value: Any, where: str, choices: Sequence[str] | None = None) -> str:
    if not isinstance(value, str):
        raise WireError(_("{where}: expected a string, got {value!r}", where=where, value=value))
    if choices is not None and value not in choices:
        raise WireError(_("{where}: must be one of {choices}; got {value!r}", where=where, choices=", ".join(choices),
                            value=value))
    return value


def check_bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise WireError(_("{where}: expected true or false, got {value!r}", where=where, value=value))
    return value


def check_object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise WireError(_("{where}: expected a JSON object, got {kind}", where=where, kind=type(value).__name__))
    return value


def check_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise WireError(_("{where}: expected a list, got {kind}", where=where, kind=type(value).__name__))
    return value


def read_int(obj: Mapping[str, Any], key: str, where: str, minimum: int | None = 0) -> int:
    return check_int(require(obj, key, where), f"{where}.{key}", minimum)


def read_float(obj: Mapping[str, Any], key: str, where: str, low: float | None = None,
               high: float | None = None) -> float:
    return check_float(require(obj, key, where), f"{where}.{key}", low, high)


def read_str(obj: Mapping[str, Any], key: str, where: str, choices: Sequence[str] | None = None) -> str:
    return check_str(require(obj, key, where), f"{where}.{key}", choices)


def read_bool(obj: Mapping[str, Any], key: str, where: str) -> bool:
    return check_bool(require(obj, key, where), f"{where}.{key}")


def read_list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    return check_list(require(obj, key, where), f"{where}.{key}")


def read_dict(obj: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    return dict(check_object(require(obj, key, where), f"{where}.{key}"))


def optional_int(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    return None if obj.get(key) is None else read_int(obj, key, where)


def optional_float(obj: Mapping[str, Any], key: str, where: str) -> float | None:
    return None if obj.get(key) is None else read_float(obj, key, where)


def read_objects(obj: Mapping[str, Any], key: str, where: str,
                 required: Sequence[str]) -> tuple[dict[str, Any], ...]:
    """A list of JSON objects, each holding at least the ``required`` keys."""
    out = []
    for i, item in enumerate(read_list(obj, key, where)):
        entry = check_object(item, f"{where}.{key}[{i}]")
        for name in required:
            require(entry, name, f"{where}.{key}[{i}]")
        out.append(dict(entry))
    return tuple(out)


def read_strings(obj: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    values = read_list(obj, key, where)
    for i, value in enumerate(values):
        check_str(value, f"{where}.{key}[{i}]")
    return tuple(values)


def hex_pair(value: Any, where: str) -> list[int] | None:
    """A hex as the engine publishes it: ``[q, r]`` integers, or null."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(is_int(v) for v in value):
        raise WireError(_("{where}: expected a hex [q, r] or null, got {value!r}", where=where, value=value))
    return [value[0], value[1]]


def hex_or_label(value: Any, where: str) -> None:
    """A hex in a command: a label such as ``"F2"`` or ``[q, r]`` (the session resolves either)."""
    if isinstance(value, str) or (isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value)):
        return
    raise WireError(_("{where}: expected a hex label such as 'F2' or [q, r], got {value!r}", where=where, value=value))
