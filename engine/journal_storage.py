"""The journal as a file on a disk: what an SQLite error says about that file, and who may read it.

An SQLite error is sorted by its result code (``sqlite3.Error.sqlite_errorcode``; the primary code is its
low byte), never by its wording: a full disk (``SQLITE_FULL``) or a failing one (``SQLITE_IOERR_*``) leaves
the journal intact and must not be reported as damage (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``), whose fix
is to move the file away. Journal files hold the players' games: they are made 0600, like the keys.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

MEMORY = ":memory:"  # a journal kept in memory only: nothing to lock, nothing left on disk
COMPANIONS = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside the journal while writing it

# What a database error says about the file, by SQLite's primary result code (the extended code's low byte).
FULL, IO_ERROR, NOT_WRITABLE = "full", "io", "not-writable"
CANNOT_OPEN, BUSY, DAMAGED = "cannot-open", "busy", "damaged"
_PROBLEM_OF_CODE = {
    13: FULL,  # SQLITE_FULL: "database or disk is full"
    10: IO_ERROR,  # SQLITE_IOERR and its extended codes (SQLITE_IOERR_WRITE, _FSYNC, ...)
    8: NOT_WRITABLE,  # SQLITE_READONLY
    3: NOT_WRITABLE,  # SQLITE_PERM
    23: NOT_WRITABLE,  # SQLITE_AUTH
    14: CANNOT_OPEN,  # SQLITE_CANTOPEN
    5: BUSY,  # SQLITE_BUSY
    6: BUSY,  # SQLITE_LOCKED
}


def storage_problem(exc: sqlite3.Error) -> str:
    """Which kind of trouble an SQLite error is: one of FULL, IO_ERROR, NOT_WRITABLE, CANNOT_OPEN, BUSY, or
    DAMAGED (SQLITE_CORRUPT, SQLITE_NOTADB, and a schema the file no longer holds)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(code, int):
        return DAMAGED
    return _PROBLEM_OF_CODE.get(code & 0xFF, DAMAGED)


def private_file(path: Path) -> None:
    """Make the journal file 0600 before SQLite opens it (its -wal/-shm/-journal files take its mode); a
    journal made wider by an older version is narrowed."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        _narrow(path)
        return
    os.close(fd)


def private_companions(path: Path) -> None:
    for suffix in COMPANIONS:
        _narrow(path.with_name(path.name + suffix))


def _narrow(path: Path) -> None:
    try:
        info = path.stat()
        if info.st_mode & 0o077 and info.st_uid == os.getuid():
            os.chmod(path, stat.S_IMODE(info.st_mode) & 0o700)
    except (OSError, AttributeError):  # gone meanwhile, not ours to change, or no uids (Windows)
        pass
