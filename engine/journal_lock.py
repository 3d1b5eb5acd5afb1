"""One writer per journal: an operating-system lock on a file beside the journal, released by any exit.

``games.sqlite`` is guarded by ``games.sqlite.lock``. The program that opens the journal for writing holds
an exclusive lock on that file (``flock`` on POSIX systems, ``msvcrt.locking`` on Windows) for as long as
the journal is open. The lock belongs to the open file, so the system drops it when the process ends in
any way — a clean stop, a crash, ``kill -9``, a lost power supply — and a restarted engine opens its
journal at once: nothing stale is left to clear by hand. While it holds the lock, the owner writes its
process id, host, program and start time into the file, so a second program refused the journal can
name who has it.

The lock file is never deleted (deleting it would let two programs lock two different files of the same
name); a clean close empties it. It is created 0600, like the journal.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from engine.i18n import gettext_for

_ = gettext_for(__name__)

LOCK_SUFFIX = ".lock"
_WINDOWS_LOCK_OFFSET = 1 << 30  # Windows locks a byte range others cannot read: lock one far past the owner's text

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
try:
    import msvcrt
except ImportError:  # every system but Windows
    msvcrt = None  # type: ignore[assignment]


@dataclass(frozen=True)
class LockOwner:
    """Who holds a journal's lock, as it wrote itself into the lock file (fields empty when unknown)."""

    pid: int | None
    host: str
    program: str
    started: str  # local time, "2026-12-05 09:12:03"

    def describe(self) -> str:
        if self.pid is None:
            return _("another program (it has not said which yet)")
        where = "" if self.host == socket.gethostname() else _(" on {host}", host=self.host)
        return _("process {pid}{where} ({program}), started {started}", pid=self.pid, where=where,
                 program=self.program or "?", started=self.started or "?")


class JournalInUse(OSError):
    """Another process holds the journal's lock; ``owner`` says which when it could be read."""

    def __init__(self, owner: LockOwner) -> None:
        super().__init__(owner.describe())
        self.owner = owner


class LockUnsupported(OSError):
    """This system offers no file lock the journal can use."""


def lock_path(journal: Path) -> Path:
    return journal.with_name(journal.name + LOCK_SUFFIX)


def _program() -> str:
    """The holder's command as a player would type it: ``hexa engine``, ``hexa play`` (``python -m engine`` is
    the ``hexa`` command)."""
    if not sys.argv or not sys.argv[0]:
        return ""
    head = Path(sys.argv[0])
    name = head.parent.name if head.name == "__main__.py" else head.name
    words = ["hexa" if name == "engine" else name]
    rest = iter(sys.argv[1:])
    for arg in rest:
        if arg == "--lang":
            next(rest, None)
        elif not arg.startswith("-"):
            words.append(arg)
            break
    return " ".join(words)[:80]


def _read_owner(fd: int) -> LockOwner:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data = json.loads(os.read(fd, 4096).decode("utf-8"))
        pid = data.get("pid")
        return LockOwner(pid if isinstance(pid, int) else None, str(data.get("host", "")),
                         str(data.get("program", "")), str(data.get("started", "")))
    except (OSError, ValueError, AttributeError):
        return LockOwner(None, "", "", "")


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock without waiting; False when another open file holds it."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    if msvcrt is not None:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    raise LockUnsupported(_("this system offers no file lock (neither fcntl nor msvcrt)"))


class JournalLock:
    """The held lock of one journal file; :meth:`release` (or process exit) gives it up."""

    def __init__(self, journal: Path) -> None:
        self.path = lock_path(journal)
        self._fd: int | None = None
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if not _try_lock(self._fd):
                raise JournalInUse(_read_owner(self._fd))
            started = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %z")
            text = json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "program": _program(),
                               "started": started})
            os.ftruncate(self._fd, 0)
            os.lseek(self._fd, 0, os.SEEK_SET)
            os.write(self._fd, text.encode("utf-8"))
        except BaseException:
            os.close(self._fd)
            self._fd = None
            raise

    def release(self) -> None:
        """Empty the lock file (a later refusal finds no stale owner) and drop the lock by closing it."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):  # the lock goes with the close below all the same
            os.ftruncate(fd, 0)
        os.close(fd)

    __del__ = release  # a journal dropped without close() still lets go of its lock
