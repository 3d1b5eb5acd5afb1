"""The files a tablet may name: scenarios to start (bundled, or in the engine's scenario folder) and records to save.

A tablet gives names, never paths: a scenario is a bundled id or the name of a ``.toml`` file in the
folder the engine's own ``--scenario`` file lies in; a saved record is a plain file name in the
save folder. Files are opened without following links and without blocking (a FIFO or a device is
refused, not waited on), size-limited, and refusals speak of those two folders only, so nothing
about the rest of the disk goes back to the tablet.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path

from engine.errors import EngineError
from engine.i18n import gettext_for
from engine.scenario import Scenario, bundled_scenarios, load_scenario_text
from engine.texts import join_list

_ = gettext_for(__name__)

MAX_SCENARIO_BYTES = 1024 * 1024  # bundled scenarios are a few KiB
SCENARIO_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NON_BLOCK = getattr(os, "O_NONBLOCK", 0)


class FileRefused(EngineError):
    """A name a tablet gave that the engine will not open; the text says which names it takes."""


def scenario_names(folder: Path | None) -> list[str]:
    """The names a tablet may start: the scenario folder's ``.toml`` files and the bundled scenarios."""
    names = set(bundled_scenarios())
    if folder is not None:
        with contextlib.suppress(OSError):  # the folder went away: the bundled scenarios remain
            names.update(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
                         and SCENARIO_NAME.fullmatch(p.name.removesuffix(".toml")))
    return sorted(names)


def choose_scenario(name: str, folder: Path | None) -> Scenario:
    """The scenario a tablet named; the scenario folder's file of that name wins over a bundled one."""
    stem = name.removesuffix(".toml")
    if SCENARIO_NAME.fullmatch(stem):
        if folder is not None:
            text = _read_scenario(folder / f"{stem}.toml")
            if text is not None:
                return load_scenario_text(text, f"{stem}.toml (scenario folder)")
        bundled = bundled_scenarios()
        if stem in bundled:
            return load_scenario_text(bundled[stem], f"bundled scenario {stem!r}")
    names = scenario_names(folder)
    shown = join_list(names[:40]) + (_(" and {n} more", n=len(names) - 40) if len(names) > 40 else "")
    raise FileRefused(_("no scenario named {name!r}: give the name of a bundled scenario or of a .toml file in the "
                        "engine's scenario folder, one of {shown}", name=name[:60], shown=shown))


def _read_scenario(path: Path) -> str | None:
    """The file's text; None when there is no such file. Refuses links, FIFOs, devices and large files."""
    try:
        fd = os.open(path, os.O_RDONLY | _NO_FOLLOW | _NON_BLOCK)
    except FileNotFoundError:
        return None
    except OSError:
        raise FileRefused(_("{file} in the engine's scenario folder cannot be opened: it must be a readable file "
                            "(not a link)", file=path.name)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(_("{file} in the engine's scenario folder is not a regular file", file=path.name))
        data = b""
        while len(data) <= MAX_SCENARIO_BYTES:
            chunk = os.read(fd, MAX_SCENARIO_BYTES + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > MAX_SCENARIO_BYTES:
        raise FileRefused(_("{file} in the engine's scenario folder is larger than {kib} KiB; a scenario is a few "
                            "KiB of TOML", file=path.name, kib=MAX_SCENARIO_BYTES // 1024))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused(_("{file} in the engine's scenario folder is not UTF-8 text", file=path.name)) from None


def save_text(folder: Path, name: str, text: str) -> None:
    """Write a record as the plain file ``name`` in ``folder`` (replacing an earlier record of that name)."""
    if name in (".", "..") or name.startswith(".") or "/" in name or "\\" in name:
        raise FileRefused(_("{name!r} is not a plain file name: give a name such as game-12.txt (no folders, not "
                            "starting with '.'); records are saved in the engine's save folder", name=name[:60]))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / name, os.O_WRONLY | os.O_CREAT | _NO_FOLLOW | _NON_BLOCK, 0o644)
    except OSError as exc:
        raise FileRefused(_("cannot write {name!r} in the engine's save folder ({error}); pick another file name",
                            name=name, error=exc.strerror)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused(_("{name!r} in the engine's save folder is not a regular file; pick another file name",
                                name=name))
        os.ftruncate(fd, 0)
        data = text.encode("utf-8")
        while data:
            data = data[os.write(fd, data):]
    except OSError as exc:
        raise FileRefused(_("cannot write {name!r} in the engine's save folder ({error}); pick another file name",
                            name=name, error=exc.strerror)) from None
    finally:
        os.close(fd)
